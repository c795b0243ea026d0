import { ftsTable, shortTable, type SearchKind } from '../db/search-index'
import { albumSize, playlistRows, playlistsByIds } from './playlists'
import { popularitySql } from './popularity'
import { albumJson, artistJson } from './shape'
import { songs } from './songs'
import type { CatalogStore } from './store'
import type { AlbumJson, ArtistJson, PlaylistJson, SongJson } from './types'

export interface SearchResult {
  songs: SongJson[]
  albums: AlbumJson[]
  artists: ArtistJson[]
  playlists: PlaylistJson[]
}

/** Songs, albums, artists and playlists matching `keywords`, up to `limit` of each, best first. */
export function search(store: CatalogStore, base: string, keywords: string, limit: number): SearchResult {
  const songIds = searchIds(store, 'song', keywords, limit)
  const albumIds = searchIds(store, 'album', keywords, limit)
  const artistIds = searchIds(store, 'artist', keywords, limit)
  const playlistIds = searchIds(store, 'playlist', keywords, limit)
  const artistRows = artistIds.length
    ? (store
        .prep('SELECT id, name FROM artists WHERE id IN (SELECT value FROM json_each(?))')
        .all(JSON.stringify(artistIds)) as Array<{ id: number; name: string }>)
    : []
  const artistById = new Map(artistRows.map((a) => [a.id, a]))
  const albumById = playlistRows(store, albumIds)
  return {
    songs: songs(store, base, songIds),
    albums: albumIds.flatMap((id) => {
      const p = albumById.get(id)
      return p ? [albumJson(base, p, albumSize(store, p.id))] : []
    }),
    artists: artistIds.flatMap((id) => {
      const a = artistById.get(id)
      return a ? [artistJson(base, a.id, a.name)] : []
    }),
    playlists: playlistsByIds(store, base, playlistIds),
  }
}

/**
 * Ids matching `keywords`, best first. Terms of 3+ characters go through the trigram FTS index (each
 * quoted, so FTS syntax in the input is literal text); when every term is shorter (e.g. `夜`, `星空`) the
 * lower-cased names are scanned with instr(). Exact and prefix name matches rank first.
 */
export function searchIds(store: CatalogStore, kind: SearchKind, keywords: string, limit: number): number[] {
  const terms = keywords.normalize('NFKC').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 16)
  if (terms.length === 0) return []
  const long = terms.filter((t) => [...t].length >= 3)
  const whole = terms.join(' ')
  // Within a relevance tier, popular songs first; other kinds prefer shorter names.
  const rank = kind === 'song' ? `-${popularitySql('s')}` : 'length(k.key)'
  const join = kind === 'song' ? 'JOIN songs s ON s.id = m.id' : ''
  let candidates: Array<{ id: number; key: string; rank: number }>
  if (long.length > 0) {
    // Trigram FTS; bm25 is too slow on trigram doclists, so candidates are ranked below instead.
    const table = ftsTable(kind)
    const match = long.map((t) => `"${t.replace(/"/g, '""')}"`).join(' AND ')
    candidates = store
      .prep(
        `SELECT m.id, k.key, ${rank} AS rank FROM (SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ? LIMIT 300) m
         JOIN search_keys k ON k.kind = ? AND k.id = m.id ${join}`,
      )
      .all(match, kind) as Array<{ id: number; key: string; rank: number }>
  } else if (terms.every((t) => /^[\p{L}\p{N}]+$/u.test(t))) {
    // 1–2 character terms: the unigram/bigram index.
    const table = shortTable(kind)
    const match = terms.map((t) => `"${t}"`).join(' AND ')
    candidates = (
      store
        .prep(
          `SELECT m.id, k.key FROM (SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ? LIMIT 300) m
             JOIN search_keys k ON k.kind = ? AND k.id = m.id`,
        )
        .all(match, kind) as Array<{ id: number; key: string }>
    ).map((r) => ({ ...r, rank: r.key.length }))
  } else {
    // Short terms with punctuation: scan the keys.
    const where = terms.map(() => 'instr(key, ?) > 0').join(' AND ')
    candidates = (
      store
        .prep(`SELECT id, key FROM search_keys WHERE kind = ? AND ${where} LIMIT 200`)
        .all(kind, ...terms) as Array<{ id: number; key: string }>
    ).map((r) => ({ ...r, rank: r.key.length }))
  }
  const tier = (key: string) => (key === whole ? 0 : key.startsWith(whole) ? 1 : key.includes(whole) ? 2 : 3)
  return candidates
    .map((c) => ({ ...c, tier: tier(c.key) }))
    .sort((a, b) => a.tier - b.tier || a.rank - b.rank || a.id - b.id)
    .slice(0, limit)
    .map((c) => c.id)
}
