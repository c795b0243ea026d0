import type { DB, Statement } from './sqlite'

export type SearchKind = 'song' | 'artist' | 'album' | 'playlist'

/** Character unigrams and bigrams of each word of a lower-cased key: what 1–2 character queries match. */
export function shortGrams(key: string): string {
  const grams = new Set<string>()
  for (const word of key.split(/\s+/)) {
    const chars = [...word]
    for (let i = 0; i < chars.length; i++) {
      grams.add(chars[i])
      if (i + 1 < chars.length) grams.add(chars[i] + chars[i + 1])
    }
  }
  return [...grams].join(' ')
}

export const SHORT_TABLES = {
  song: 'songs_short',
  album: 'albums_short',
  artist: 'artists_short',
  playlist: 'playlists_short',
} as const

const FTS: Record<SearchKind, string> = {
  song: 'songs_fts',
  artist: 'artists_fts',
  album: 'albums_fts',
  playlist: 'playlists_fts',
}

/** Keeps the FTS tables and the short-query keys in step with the catalogue. */
export class SearchIndexer {
  private readonly insertFts: Record<SearchKind, Statement>
  private readonly deleteFts: Record<SearchKind, Statement>
  private readonly insertShort: Record<SearchKind, Statement>
  private readonly deleteShort: Record<SearchKind, Statement>
  private readonly upsertKey
  private readonly deleteKey

  constructor(db: DB) {
    const two = (t: string) => db.prepare(`INSERT INTO ${t} (rowid, name, extra) VALUES (?, ?, ?)`)
    this.insertFts = {
      song: two(FTS.song),
      album: two(FTS.album),
      playlist: two(FTS.playlist),
      artist: db.prepare(`INSERT INTO ${FTS.artist} (rowid, name) VALUES (?, ?)`),
    }
    const del = (t: string) => db.prepare(`DELETE FROM ${t} WHERE rowid = ?`)
    this.deleteFts = {
      song: del(FTS.song),
      album: del(FTS.album),
      playlist: del(FTS.playlist),
      artist: del(FTS.artist),
    }
    const kinds = Object.keys(SHORT_TABLES) as SearchKind[]
    this.insertShort = Object.fromEntries(
      kinds.map((k) => [k, db.prepare(`INSERT INTO ${SHORT_TABLES[k]} (rowid, grams) VALUES (?, ?)`)]),
    ) as Record<SearchKind, Statement>
    this.deleteShort = Object.fromEntries(
      kinds.map((k) => [k, db.prepare(`DELETE FROM ${SHORT_TABLES[k]} WHERE rowid = ?`)]),
    ) as Record<SearchKind, Statement>
    this.upsertKey = db.prepare(
      'INSERT INTO search_keys (kind, id, key) VALUES (?, ?, ?) ON CONFLICT(kind, id) DO UPDATE SET key = excluded.key',
    )
    this.deleteKey = db.prepare('DELETE FROM search_keys WHERE kind = ? AND id = ?')
  }

  /** `name` is what short queries match and what ranks first; `extra` (artists, album…) only long ones. */
  add(kind: SearchKind, id: number, rawName: string, rawExtra = ''): void {
    // NFKC so that full-width letters, compatibility forms and composed/decomposed accents match alike.
    const name = rawName.normalize('NFKC')
    const extra = rawExtra.normalize('NFKC')
    if (kind === 'artist') this.insertFts.artist.run(id, name)
    else this.insertFts[kind].run(id, name, extra)
    const key = name.toLowerCase()
    this.upsertKey.run(kind, id, key)
    this.insertShort[kind].run(id, shortGrams(key))
  }

  remove(kind: SearchKind, id: number): void {
    this.deleteFts[kind].run(id)
    this.deleteKey.run(kind, id)
    this.deleteShort[kind].run(id)
  }

  replace(kind: SearchKind, id: number, name: string, extra = ''): void {
    this.remove(kind, id)
    this.add(kind, id, name, extra)
  }
}

export const ftsTable = (kind: SearchKind): string => FTS[kind]
export const shortTable = (kind: SearchKind): string => SHORT_TABLES[kind]
