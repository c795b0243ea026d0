import { z } from 'zod'
import { albumSchema, idSchema, playlistSchema } from '@shared/api/models'
import type { Album, Id, Playlist } from '@shared/api/models'
import { playlistDetailSchema } from './answers'
import type { ApiClient } from './client'

/**
 * Endpoints real servers answer beyond the API document, as NeteaseMusicAdapter serves them (read from
 * its source): every parameter is a query parameter; answers are the usual envelope. Whether a given
 * source has them is learnt by use (`core/capabilities`), never assumed.
 *
 * | endpoint | parameters | data |
 * |---|---|---|
 * | `GET /album/detail` | `id` | a Playlist of type `album`: songs in order, `meta.artists`, `meta.subscribed` |
 * | `GET /song/like` | `id` | `{ id, isLiked }` |
 * | `PUT /album/like` | `id`, `like` | `{ id, like }` |
 * | `GET /album/sublist` | `limit`, `offset` | Album[] |
 * | `POST /playlist/create` | `name` | `{ id, name, cover }` (ids above 2³² on the real server) |
 * | `POST` / `DELETE /playlist/songs` | `pid`, `sids` (comma-separated) | nothing; new songs go first, and it never fails for an unknown or foreign playlist |
 * | `POST` / `DELETE /playlist/subscribe` | `id` | nothing |
 */

/** Items that fail their schema are dropped, so one bad entry never blanks a list. */
const tolerant = <T extends z.ZodType>(item: T) =>
  z.unknown().transform((values) =>
    (Array.isArray(values) ? values : []).flatMap((value): z.output<T>[] => {
      const parsed = item.safeParse(value)
      return parsed.success ? [parsed.data as z.output<T>] : []
    }),
  )

/** An album's detail: its songs checked as a playlist's are (in slices, a bad one dropped). */
const albumDetailSchema = playlistDetailSchema
const likeStateSchema = z.object({ id: idSchema, isLiked: z.boolean() })
/** Writes that answer success without `data`: whatever comes is fine. */
const anything = z.unknown()

export function albumDetail(api: ApiClient, id: Id): Promise<Playlist> {
  return api.read({ path: '/album/detail', query: { id }, schema: albumDetailSchema, cache: true })
}

export async function songLiked(api: ApiClient, id: Id): Promise<boolean> {
  return (await api.read({ path: '/song/like', query: { id }, schema: likeStateSchema })).isLiked
}

export async function likeAlbum(api: ApiClient, id: Id, like: boolean): Promise<void> {
  await api.write({ method: 'PUT', path: '/album/like', query: { id, like }, schema: anything })
}

export function savedAlbums(
  api: ApiClient,
  page: { limit?: number; offset?: number } = {},
): Promise<Album[]> {
  return api.read({ path: '/album/sublist', query: page, schema: tolerant(albumSchema) })
}

export function createPlaylist(api: ApiClient, name: string): Promise<Playlist> {
  return api.write({ method: 'POST', path: '/playlist/create', query: { name }, schema: playlistSchema })
}

export async function changePlaylistSongs(
  api: ApiClient,
  pid: Id,
  songIds: Id[],
  change: 'add' | 'remove',
): Promise<void> {
  await api.write({
    method: change === 'add' ? 'POST' : 'DELETE',
    path: '/playlist/songs',
    query: { pid, sids: songIds.map(String).join(',') },
    schema: anything,
  })
}

export async function subscribePlaylist(api: ApiClient, id: Id, subscribe: boolean): Promise<void> {
  await api.write({
    method: subscribe ? 'POST' : 'DELETE',
    path: '/playlist/subscribe',
    query: { id },
    schema: anything,
  })
}
