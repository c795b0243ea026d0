import {
  likeResultSchema,
  loginStatusSchema,
  qrCodeSchema,
  qrKeySchema,
  qrStatusSchema,
  songSchema,
} from '@shared/api/models'
import type { Id } from '@shared/api/models'
import { z } from 'zod'
import {
  artistDetailSchema,
  artistList,
  playlistDetailSchema,
  playlistList,
  playlistRawSongsSchema,
  searchSchema,
  songList,
} from './answers'
import { JsonText } from './sliced-json'
import { createTransport } from './transport'
import type { ApiCall, ApiClientOptions, RequestOptions } from './transport'
import { checkMediaUrl, normaliseImages } from './urls'

/**
 * The data-source API client: one method per endpoint of the spec. Every answer is checked (envelope, then
 * a zod schema for `data`); every failure is a `DataSourceError`. Nothing else is ever thrown.
 *
 * This file is the endpoint table. How a request travels (retries, cache, redirects, the capped reader,
 * the envelope) is `transport.ts`; the tolerant schemas `data` is checked against are `answers.ts`; image
 * and media addresses are made usable in `urls.ts`.
 */

export type { PlaylistWithRawSongs } from './answers'
export { MAX_JSON_BYTES, MAX_REDIRECTS } from './transport'
export type { ApiCall as Call, ApiClientOptions, RequestOptions } from './transport'
export { normaliseImages } from './urls'

export type ApiClient = ReturnType<typeof createApiClient>

export function createApiClient(options: ApiClientOptions) {
  const { baseUrl, request, write, clearCache } = createTransport(options)
  let searchController: AbortController | undefined

  return {
    baseUrl,
    /** Forget cached browse answers (after login, logout or a like). */
    clearCache,

    qrKey: (o: RequestOptions = {}) => request({ path: '/connect/qr/key', schema: qrKeySchema, ...o }),
    qrCreate: (key: string, qrimg = true, o: RequestOptions = {}) =>
      request({ path: '/connect/qr/create', query: { key, qrimg }, schema: qrCodeSchema, ...o }),
    qrCheck: (key: string, o: RequestOptions = {}) =>
      request({ path: '/connect/qr/check', query: { key }, schema: qrStatusSchema, ...o }),
    loginStatus: (o: RequestOptions = {}) =>
      request({ path: '/connect/status', schema: loginStatusSchema, ...o }),
    /**
     * Revokes the credential on the server (`POST /connect/logout`): an extension the reference server
     * has; a source without it answers 404.
     */
    logout: (o: RequestOptions = {}) =>
      request({ method: 'POST', path: '/connect/logout', schema: z.unknown(), ...o }),

    userPlaylists: (uid: Id, page: { limit?: number; offset?: number } = {}, o: RequestOptions = {}) =>
      request({ path: '/playlist/list', query: { uid, ...page }, schema: playlistList, cache: true, ...o }),
    recommendPlaylists: (limit?: number, o: RequestOptions = {}) =>
      request({ path: '/playlist/recommend', query: { limit }, schema: playlistList, cache: true, ...o }),
    toplists: (limit?: number, o: RequestOptions = {}) =>
      request({ path: '/playlist/toplist', query: { limit }, schema: playlistList, cache: true, ...o }),
    playlistDetail: (id: Id, o: RequestOptions = {}) =>
      request({ path: '/playlist/detail', query: { id }, schema: playlistDetailSchema, cache: true, ...o }),

    /**
     * `/playlist/detail` with the songs unchecked. `page` asks for part of the list (`offset`, `limit`):
     * an extension the reference server understands and other servers ignore (they send every song).
     */
    playlistPage: (id: Id, page: { offset?: number; limit?: number } = {}, o: RequestOptions = {}) =>
      request({
        path: '/playlist/detail',
        query: { id, ...page },
        schema: playlistRawSongsSchema,
        cache: true,
        // A list of 50,000 songs as 50,000 strings, not half a million objects to build and collect.
        keepText: ['data', 'songs'],
        ...o,
      }),
    /** A song of `playlistPage` as the data source sent it (parsed, images fixed up) when kept as text. */
    expandRaw: (item: unknown): unknown => {
      if (!(item instanceof JsonText)) return item
      try {
        return normaliseImages(JSON.parse(item.text) as unknown, baseUrl)
      } catch {
        return undefined
      }
    },

    recommendSongs: (limit?: number, o: RequestOptions = {}) =>
      request({ path: '/song/recommend', query: { limit }, schema: songList, cache: true, ...o }),
    /** Never cached: its media URL expires. */
    songDetail: async (id: Id, uid: Id | undefined, br?: number, o: RequestOptions = {}) =>
      checkMediaUrl(
        await request({ path: '/song/detail', query: { id, uid, br }, schema: songSchema, ...o }),
        baseUrl,
      ),
    /** Reads wait for it; the cache is cleared when it ends. */
    likeSong: (id: Id, like = true, o: RequestOptions = {}) =>
      write({ method: 'PUT', path: '/song/like', query: { id, like }, schema: likeResultSchema, ...o }),

    /** Endpoints beyond the spec (`./extensions.ts`): a read, checked like every other answer. */
    read: <T extends z.ZodType>(call: Omit<ApiCall<T>, 'method'>) => request(call),
    /** A write beyond the spec: reads wait for it, and the cache is cleared after it. */
    write,

    recommendArtists: (limit?: number, o: RequestOptions = {}) =>
      request({ path: '/artist/recommend', query: { limit }, schema: artistList, cache: true, ...o }),
    artistDetail: (id: Id, o: RequestOptions = {}) =>
      request({ path: '/artist/detail', query: { id }, schema: artistDetailSchema, cache: true, ...o }),

    /** A newer search cancels the one still in flight. */
    search: async (keywords: string, limit?: number, o: RequestOptions = {}) => {
      searchController?.abort()
      const controller = new AbortController()
      searchController = controller
      const signal = o.signal ? AbortSignal.any([o.signal, controller.signal]) : controller.signal
      try {
        return await request({ path: '/search', query: { keywords, limit }, schema: searchSchema, signal })
      } finally {
        if (searchController === controller) searchController = undefined
      }
    },
  }
}
