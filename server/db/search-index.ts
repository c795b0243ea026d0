import type { Statement } from 'better-sqlite3'
import type { DB } from './open'

export type SearchKind = 'song' | 'artist' | 'album' | 'playlist'

const FTS: Record<SearchKind, string> = {
  song: 'songs_fts',
  artist: 'artists_fts',
  album: 'albums_fts',
  playlist: 'playlists_fts',
}

/** Keeps the FTS tables and the short-query keys in step with the catalogue. */
export class SearchIndexer {
  private readonly insertFts: Record<SearchKind, Statement<unknown[]>>
  private readonly deleteFts: Record<SearchKind, Statement<unknown[]>>
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
    this.upsertKey = db.prepare(
      'INSERT INTO search_keys (kind, id, key) VALUES (?, ?, ?) ON CONFLICT(kind, id) DO UPDATE SET key = excluded.key',
    )
    this.deleteKey = db.prepare('DELETE FROM search_keys WHERE kind = ? AND id = ?')
  }

  /** `name` is what short queries match and what ranks first; `extra` (artists, album…) only long ones. */
  add(kind: SearchKind, id: number, name: string, extra = ''): void {
    if (kind === 'artist') this.insertFts.artist.run(id, name)
    else this.insertFts[kind].run(id, name, extra)
    this.upsertKey.run(kind, id, name.toLowerCase())
  }

  remove(kind: SearchKind, id: number): void {
    this.deleteFts[kind].run(id)
    this.deleteKey.run(kind, id)
  }

  replace(kind: SearchKind, id: number, name: string, extra = ''): void {
    this.remove(kind, id)
    this.add(kind, id, name, extra)
  }
}

export const ftsTable = (kind: SearchKind): string => FTS[kind]
