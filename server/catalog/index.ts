import type { DB } from '../db/sqlite'
import { artistDetail, recommendArtists } from './artists'
import { chartSongIds } from './charts'
import { playlistDetail, recommendPlaylists, toplists, userPlaylists } from './playlists'
import { search, searchIds } from './search'
import { userJson } from './shape'
import { countPlay, isLiked, like, recommendSongs, song, songExists, songs } from './songs'
import { CatalogStore } from './store'

export type { AlbumJson, ArtistJson, PlaylistJson, PrivilegeJson, SongJson, UserJson } from './types'
export { MAX_DETAIL_SONGS } from './types'
export type { SearchResult } from './search'
export { popularity, popularitySql, LIKE_WEIGHT } from './popularity'

/**
 * The catalogue's queries: plain functions of one `CatalogStore` (the database, its statements and a
 * cache), each in the module of its concern (songs, playlists, charts, artists, search), shaping the
 * spec's JSON. URLs in answers are absolute, built from `base` (no trailing slash).
 */
const QUERIES = {
  songs,
  song,
  recommendSongs,
  songExists,
  isLiked,
  like,
  countPlay,
  userPlaylists,
  recommendPlaylists,
  toplists,
  playlistDetail,
  chartSongIds,
  recommendArtists,
  artistDetail,
  search,
  searchIds,
}

/** A query with its store given. */
type OnStore<F> = F extends (store: CatalogStore, ...args: infer A) => infer R ? (...args: A) => R : never

/** The one object routes use: every query on one store, plus what needs no store. */
export type Catalog = { [K in keyof typeof QUERIES]: OnStore<(typeof QUERIES)[K]> } & {
  /** Forget computed charts and recommendations (after likes change them). */
  invalidate(): void
  userJson: typeof userJson
}

export function createCatalog(db: DB, now: () => number = Date.now): Catalog {
  const store = new CatalogStore(db, now)
  const bound = Object.fromEntries(
    Object.entries(QUERIES).map(([name, query]) => [
      name,
      (...args: unknown[]) => (query as (store: CatalogStore, ...rest: unknown[]) => unknown)(store, ...args),
    ]),
  ) as { [K in keyof typeof QUERIES]: OnStore<(typeof QUERIES)[K]> }
  return { ...bound, invalidate: () => store.invalidate(), userJson }
}
