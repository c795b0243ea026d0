import { ApiError, loginRequired, notFound } from '../envelope'
import type { UserRow } from '../auth'
import { chartSongIds } from './charts'
import { popularitySql } from './popularity'
import { artistJson, cover, userJson } from './shape'
import { songs } from './songs'
import { ids, type CatalogStore } from './store'
import {
  MAX_DETAIL_SONGS,
  PLAYLIST_COLUMNS,
  PLAYLIST_FROM,
  type PlaylistJson,
  type PlaylistRow,
} from './types'

/** A playlist row by id (any kind), or undefined. */
export function playlistRow(store: CatalogStore, id: number): PlaylistRow | undefined {
  return store.prep(`SELECT ${PLAYLIST_COLUMNS} FROM ${PLAYLIST_FROM} WHERE p.id = ?`).get(id) as
    PlaylistRow | undefined
}

/** Playlist rows for `playlistIds`, keyed by id (unknown ids are absent). */
export function playlistRows(store: CatalogStore, playlistIds: readonly number[]): Map<number, PlaylistRow> {
  if (playlistIds.length === 0) return new Map()
  const rows = store
    .prep(`SELECT ${PLAYLIST_COLUMNS} FROM ${PLAYLIST_FROM} WHERE p.id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(playlistIds)) as unknown as PlaylistRow[]
  return new Map(rows.map((r) => [r.id, r]))
}

/** Playlists in the order of `playlistIds`; unknown ids are dropped. */
export function playlistsByIds(
  store: CatalogStore,
  base: string,
  playlistIds: readonly number[],
): PlaylistJson[] {
  const byId = playlistRows(store, playlistIds)
  return playlistIds.flatMap((id) => {
    const r = byId.get(id)
    return r ? [playlistJson(store, base, r)] : []
  })
}

export function albumSize(store: CatalogStore, albumId: number): number {
  return (store.prep('SELECT COUNT(*) AS n FROM songs WHERE album_id = ?').get(albumId) as { n: number }).n
}

function playlistSize(store: CatalogStore, p: PlaylistRow): number {
  switch (p.kind) {
    case 'album':
      return albumSize(store, p.id)
    case 'liked':
      return p.creator_id === null
        ? 0
        : (store.prep('SELECT COUNT(*) AS n FROM likes WHERE user_id = ?').get(p.creator_id) as { n: number })
            .n
    case 'chart':
      return chartSongIds(store, p.rule ?? 'hot').length
    default:
      return (
        store.prep('SELECT COUNT(*) AS n FROM playlist_songs WHERE playlist_id = ?').get(p.id) as {
          n: number
        }
      ).n
  }
}

function playlistJson(store: CatalogStore, base: string, p: PlaylistRow): PlaylistJson {
  const json: PlaylistJson = {
    id: p.id,
    name: p.name,
    cover: cover(base, p.kind === 'album' ? 'album' : 'playlist', p.id),
    size: playlistSize(store, p),
    type: p.type,
  }
  if (p.description) json.description = p.description
  if (p.creator_id !== null && p.creator_name !== null) {
    json.creator = userJson(base, { id: p.creator_id, name: p.creator_name })
  }
  const meta: Record<string, unknown> = { kind: p.kind }
  if (p.kind === 'album') {
    if (p.artist_id !== null && p.artist_name !== null) {
      meta.artists = [artistJson(base, p.artist_id, p.artist_name)]
    }
    if (p.released_at !== null) meta.releasedAt = new Date(p.released_at).toISOString()
  }
  if (p.kind === 'chart') meta.rule = p.rule
  json.meta = meta
  return json
}

/** A user's own playlists; their liked-songs playlist only when they ask for themselves, first. */
export function userPlaylists(
  store: CatalogStore,
  base: string,
  uid: number,
  viewer: UserRow | null,
  limit: number,
  offset: number,
): PlaylistJson[] {
  if (!store.prep('SELECT id FROM users WHERE id = ?').get(uid)) throw notFound(`No user with id ${uid}.`)
  const ownLikes = viewer !== null && viewer.id === uid
  const found = ids(
    store
      .prep(
        `SELECT id FROM playlists WHERE creator_id = ? AND (kind IN ('user', 'editorial') OR (kind = 'liked' AND ?))
           ORDER BY kind = 'liked' DESC, created_at DESC, id LIMIT ? OFFSET ?`,
      )
      .all(uid, ownLikes ? 1 : 0, limit, offset),
  )
  return playlistsByIds(store, base, found)
}

/** Editorial and user playlists ranked by the average popularity of their songs; the viewer's own left out. */
export function recommendPlaylists(
  store: CatalogStore,
  base: string,
  limit: number,
  viewer: UserRow | null,
): PlaylistJson[] {
  const ranked = store.cached(
    'recommend-playlists',
    () =>
      store
        .prep(
          `SELECT p.id, p.creator_id FROM playlists p JOIN playlist_songs ps ON ps.playlist_id = p.id
             JOIN songs s ON s.id = ps.song_id
             WHERE p.kind IN ('editorial', 'user')
             GROUP BY p.id ORDER BY AVG${popularitySql('s')} DESC, p.id LIMIT 500`,
        )
        .all() as Array<{ id: number; creator_id: number | null }>,
  )
  const found = ranked.filter((r) => viewer === null || r.creator_id !== viewer.id).map((r) => r.id)
  return playlistsByIds(store, base, found.slice(0, limit))
}

export function toplists(store: CatalogStore, base: string, limit: number): PlaylistJson[] {
  const found = ids(
    store.prep("SELECT id FROM playlists WHERE kind = 'chart' ORDER BY id LIMIT ?").all(limit),
  )
  return playlistsByIds(store, base, found)
}

/**
 * A playlist or album with its songs; a liked-songs playlist only for its owner. `page` is this server's
 * extension (other servers ignore it): only the songs from `offset`, at most `limit` of them; `size` is
 * always the whole list's length (up to MAX_DETAIL_SONGS), so a client that asked for a page knows how
 * many songs there are.
 */
export function playlistDetail(
  store: CatalogStore,
  base: string,
  id: number,
  viewer: UserRow | null,
  page?: { offset: number; limit?: number },
): PlaylistJson {
  const p = playlistRow(store, id)
  if (!p) throw notFound(`No playlist or album with id ${id}.`)
  if (p.kind === 'liked' && (viewer === null || viewer.id !== p.creator_id)) {
    if (viewer === null) throw loginRequired()
    throw new ApiError(403, 'This liked-songs playlist belongs to another user.')
  }
  const offset = page?.offset ?? 0
  const limit = Math.min(page?.limit ?? MAX_DETAIL_SONGS, MAX_DETAIL_SONGS)
  // Never past the cap, whatever the offset.
  const take = Math.max(0, Math.min(limit, MAX_DETAIL_SONGS - offset))
  const json = playlistJson(store, base, p)
  json.songs = songs(store, base, playlistSongIds(store, p, offset, take))
  json.size = Math.min(json.size ?? playlistSize(store, p), MAX_DETAIL_SONGS)
  return json
}

/** The ids of one page of a playlist's songs, in the playlist's order. */
function playlistSongIds(store: CatalogStore, p: PlaylistRow, offset: number, take: number): number[] {
  switch (p.kind) {
    case 'album':
      return ids(
        store
          .prep('SELECT id FROM songs WHERE album_id = ? ORDER BY disc_no, track_no, id LIMIT ? OFFSET ?')
          .all(p.id, take, offset),
      )
    case 'liked':
      return ids(
        store
          .prep(
            'SELECT song_id AS id FROM likes WHERE user_id = ? ORDER BY created_at DESC, song_id DESC LIMIT ? OFFSET ?',
          )
          .all(p.creator_id, take, offset),
      )
    case 'chart':
      return chartSongIds(store, p.rule ?? 'hot').slice(offset, offset + take)
    default:
      return ids(
        store
          .prep(
            'SELECT song_id AS id FROM playlist_songs WHERE playlist_id = ? ORDER BY position LIMIT ? OFFSET ?',
          )
          .all(p.id, take, offset),
      )
  }
}
