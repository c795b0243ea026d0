import type { DB } from '../db/open'
import type { UserRow } from '../auth'
import type { SearchKind } from '../db/search-index'
import { artistDetail, recommendArtists } from './artists'
import { chartSongIds } from './charts'
import { playlistDetail, recommendPlaylists, toplists, userPlaylists } from './playlists'
import { search, searchIds, type SearchResult } from './search'
import { userJson } from './shape'
import { countPlay, isLiked, like, recommendSongs, song, songExists, songs } from './songs'
import { CatalogStore } from './store'
import type { ArtistJson, PlaylistJson, SongJson, UserJson } from './types'

export type { AlbumJson, ArtistJson, PlaylistJson, PrivilegeJson, SongJson, UserJson } from './types'
export { MAX_DETAIL_SONGS } from './types'
export type { SearchResult } from './search'
export { popularity, popularitySql, LIKE_WEIGHT } from './popularity'

/**
 * Reads the catalogue and shapes it as the spec's JSON; the one object routes use. Each concern lives in
 * its own module (songs, playlists, charts, artists, search), all sharing one `CatalogStore`.
 * URLs in answers are absolute, built from `base` (no trailing slash).
 */
export class Catalog {
  private readonly store: CatalogStore

  constructor(db: DB, now: () => number = Date.now) {
    this.store = new CatalogStore(db, now)
  }

  /** Forget computed charts and recommendations (after likes change them). */
  invalidate(): void {
    this.store.invalidate()
  }

  userJson(base: string, user: { id: number; name: string; description?: string | null }): UserJson {
    return userJson(base, user)
  }

  songs(base: string, ids: readonly number[]): SongJson[] {
    return songs(this.store, base, ids)
  }

  song(base: string, id: number): { song: SongJson; lyric: Record<string, string> } | undefined {
    return song(this.store, base, id)
  }

  recommendSongs(base: string, limit: number, viewer: UserRow | null): SongJson[] {
    return recommendSongs(this.store, base, limit, viewer)
  }

  songExists(id: number): boolean {
    return songExists(this.store, id)
  }

  isLiked(userId: number, songId: number): boolean {
    return isLiked(this.store, userId, songId)
  }

  like(user: UserRow, songId: number, value: boolean): { id: number; like: boolean; playlist: number } {
    return like(this.store, user, songId, value)
  }

  countPlay(songId: number): void {
    countPlay(this.store, songId)
  }

  userPlaylists(
    base: string,
    uid: number,
    viewer: UserRow | null,
    limit: number,
    offset: number,
  ): PlaylistJson[] {
    return userPlaylists(this.store, base, uid, viewer, limit, offset)
  }

  recommendPlaylists(base: string, limit: number, viewer: UserRow | null): PlaylistJson[] {
    return recommendPlaylists(this.store, base, limit, viewer)
  }

  toplists(base: string, limit: number): PlaylistJson[] {
    return toplists(this.store, base, limit)
  }

  playlistDetail(
    base: string,
    id: number,
    viewer: UserRow | null,
    page?: { offset: number; limit?: number },
  ): PlaylistJson {
    return playlistDetail(this.store, base, id, viewer, page)
  }

  chartSongIds(rule: string): number[] {
    return chartSongIds(this.store, rule)
  }

  recommendArtists(base: string, limit: number): ArtistJson[] {
    return recommendArtists(this.store, base, limit)
  }

  artistDetail(base: string, id: number): PlaylistJson {
    return artistDetail(this.store, base, id)
  }

  search(base: string, keywords: string, limit: number): SearchResult {
    return search(this.store, base, keywords, limit)
  }

  searchIds(kind: SearchKind, keywords: string, limit: number): number[] {
    return searchIds(this.store, kind, keywords, limit)
  }
}
