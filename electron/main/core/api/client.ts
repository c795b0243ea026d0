import { z } from 'zod'
import {
  artistSchema,
  envelopeSchema,
  likeResultSchema,
  loginStatusSchema,
  playlistSchema,
  qrCodeSchema,
  qrKeySchema,
  qrStatusSchema,
  albumSchema,
  songSchema,
} from '@shared/api/models'
import type { Id } from '@shared/api/models'
import { DataSourceError } from '@shared/errors'
import type { Logger } from '../log'

/**
 * The data-source API client: one method per endpoint of the spec. Every answer is checked (envelope, then
 * a zod schema for `data`); every failure is a `DataSourceError`. Nothing else is ever thrown.
 */

export interface ApiClientOptions {
  baseUrl: string
  /** The raw credential, or undefined when signed out. Sent only in the `Token` header. */
  getCredential: () => string | undefined
  fetch?: typeof fetch
  timeoutMs?: number
  /** How long browse answers are reused. 0 disables the cache. */
  cacheTtlMs?: number
  /** Delay before the one retry of an idempotent GET after a network error. */
  retryDelayMs?: number
  now?: () => number
  log?: Logger
}

export interface RequestOptions {
  signal?: AbortSignal
}

/**
 * The largest JSON answer read, in bytes. The body is streamed and reading stops as soon as it passes this,
 * so a hostile or broken server cannot fill memory; a 10,000-song playlist is a few MB.
 */
export const MAX_JSON_BYTES = 16 * 1024 * 1024
/** Same-origin redirects followed before giving up; another origin is never followed. */
export const MAX_REDIRECTS = 3
/**
 * Deeper answers are refused: JSON.parse copes with any depth, but structured clone (Electron IPC) and
 * JSON.stringify overflow the stack at a few thousand levels. Real answers nest about ten levels.
 */
const MAX_NESTING = 100
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])
const SUCCESS_CODES = new Set([0, 200])

/**
 * Long lists are checked in slices with a turn of the event loop between them, so a big answer (a
 * 10,000-song playlist) never holds the main process for the whole check in one piece.
 */
const SLICE = 500
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Items that fail their schema are dropped, so one bad entry never blanks a whole list. */
function tolerantList<T extends z.ZodType>(item: T) {
  return z
    .array(z.unknown())
    .nullish()
    .transform(async (values) => {
      const out: z.output<T>[] = []
      const list = values ?? []
      for (let i = 0; i < list.length; i++) {
        if (i > 0 && i % SLICE === 0) await nextTurn()
        const parsed = item.safeParse(list[i])
        if (parsed.success) out.push(parsed.data)
      }
      return out
    })
}

const playlistList = tolerantList(playlistSchema)
const songList = tolerantList(songSchema)

/** A detail whose one bad song would otherwise blank the whole playlist. */
const playlistDetailSchema = playlistSchema.extend({
  songs: z
    .unknown()
    .transform(async (value) => (Array.isArray(value) ? await songList.parseAsync(value) : undefined)),
})

/**
 * An artist's detail: a playlist-shaped object. Where the server sends the artist's albums in
 * `meta.albums` (the spec leaves `meta` open), they are checked like search's albums, bad ones dropped,
 * so the renderer can show them as `Album[]`; anything else there is removed.
 */
const albumList = tolerantList(albumSchema)
const artistDetailSchema = playlistDetailSchema.transform(async (artist) => {
  const albums = artist.meta?.albums
  if (albums === undefined) return artist
  const { albums: _dropped, ...meta } = artist.meta ?? {}
  void _dropped
  return Array.isArray(albums)
    ? { ...artist, meta: { ...meta, albums: await albumList.parseAsync(albums) } }
    : { ...artist, meta }
})

/**
 * A playlist whose songs are left unchecked: the paged catalogue (`core/catalog/paged.ts`) validates them
 * a page at a time, as they are asked for, instead of all of a long list before the first is shown.
 */
const playlistRawSongsSchema = playlistSchema.extend({
  songs: z.unknown().transform((value) => (Array.isArray(value) ? (value as unknown[]) : undefined)),
})
export type PlaylistWithRawSongs = z.output<typeof playlistRawSongsSchema>

/** Search: every list tolerant; some servers answer `[]` or `null` when nothing matched. */
const searchSchema = z.preprocess(
  (value) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}),
  z.object({
    songs: tolerantList(songSchema),
    albums: tolerantList(albumSchema),
    artists: tolerantList(artistSchema),
    playlists: tolerantList(playlistSchema),
  }),
)

/** Envelope codes some servers use for "log in first". */
const LOGIN_REQUIRED_CODES = new Set([301, 401])

const IMAGE_KEYS = new Set(['cover', 'avatar'])

/**
 * Image fields (`cover`, `avatar`) as the renderer can use them: absolute http(s) or data URLs are kept,
 * paths are resolved against the data source, anything else (`"null"`, `"default"`) is dropped.
 */
export function normaliseImages<T>(value: T, baseUrl: string): T {
  const fix = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) fix(item)
      return
    }
    if (typeof node !== 'object' || node === null) return
    const record = node as Record<string, unknown>
    // for…in, not Object.entries: no array per object on a 10,000-song walk.
    for (const key in record) {
      const child = record[key]
      if (IMAGE_KEYS.has(key) && typeof child === 'string') record[key] = imageUrl(child, baseUrl)
      else if (typeof child === 'object' && child !== null) fix(child)
    }
  }
  fix(value)
  return value
}

function imageUrl(raw: string, baseUrl: string): string | undefined {
  const text = raw.trim()
  if (!text) return undefined
  if (/^data:image\//i.test(text)) return text
  if (/^https?:\/\//i.test(text)) return text
  if (text.startsWith('//')) return `${new URL(baseUrl).protocol}${text}`
  if (text.startsWith('/')) return new URL(text, baseUrl + '/').href
  return undefined
}

export type ApiClient = ReturnType<typeof createApiClient>

export function createApiClient(options: ApiClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const origin = new URL(baseUrl).origin
  const doFetch = options.fetch ?? globalThis.fetch
  const timeoutMs = options.timeoutMs ?? 10_000
  const cacheTtlMs = options.cacheTtlMs ?? 60_000
  const retryDelayMs = options.retryDelayMs ?? 300
  const now = options.now ?? Date.now
  const cache = new Map<string, { at: number; value: unknown }>()
  /** Bumped by every clear: an answer to a read started before a clear (a like) is not cached after it. */
  let cacheGeneration = 0
  const clearCache = () => {
    cacheGeneration++
    cache.clear()
  }
  let searchController: AbortController | undefined

  interface Call<T extends z.ZodType> {
    method?: 'GET' | 'PUT' | 'POST'
    path: string
    query?: Record<string, string | number | boolean | undefined>
    schema: T
    cache?: boolean
    signal?: AbortSignal
  }

  /** Writes in flight (likes). A read issued meanwhile waits for them, so it never shows the state before. */
  const writes = new Set<Promise<unknown>>()

  async function request<T extends z.ZodType>(call: Call<T>): Promise<z.output<T>> {
    const method = call.method ?? 'GET'
    if (method === 'GET' && writes.size > 0) await Promise.allSettled([...writes])
    const url = new URL(baseUrl + call.path)
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value))
    }
    const credential = options.getCredential()
    // The cache is per credential state: a signed-in answer (likes, private lists) is not shown signed out.
    const cacheKey = `${credential ? 'auth' : 'anon'} ${method} ${url.pathname}${url.search}`
    if (call.cache && cacheTtlMs > 0) {
      const hit = cache.get(cacheKey)
      if (hit && now() - hit.at < cacheTtlMs) return hit.value as z.output<T>
    }

    const generation = cacheGeneration
    const attempts = method === 'GET' ? 2 : 1
    let lastError: DataSourceError | undefined
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const value = await send(method, url, credential, call)
        if (call.cache && cacheTtlMs > 0 && generation === cacheGeneration)
          cache.set(cacheKey, { at: now(), value })
        return value
      } catch (error) {
        lastError = error as DataSourceError
        if (lastError.kind !== 'network' || attempt === attempts) break
        options.log?.warn('network error, retrying once', { endpoint: call.path })
        await sleep(retryDelayMs * attempt, call.signal)
        if (call.signal?.aborted) throw cancelled(call.path)
      }
    }
    throw lastError!
  }

  async function send<T extends z.ZodType>(
    method: string,
    url: URL,
    credential: string | undefined,
    call: Call<T>,
  ): Promise<z.output<T>> {
    const endpoint = call.path
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout
    const headers: Record<string, string> = { Accept: 'application/json' }
    if (credential) headers.Token = `Bearer ${credential}`

    let response: Response
    let body: string
    try {
      response = await fetchSameOrigin(url, method, headers, signal, endpoint)
      body = await readCapped(response, MAX_JSON_BYTES, endpoint)
    } catch (error) {
      if (error instanceof DataSourceError) throw error
      if (call.signal?.aborted) throw cancelled(endpoint)
      if (timeout.aborted) {
        throw new DataSourceError({
          kind: 'timeout',
          endpoint,
          message: `The data source did not answer within ${Math.round(timeoutMs / 1000)} s`,
        })
      }
      throw new DataSourceError({
        kind: 'network',
        endpoint,
        message: `Cannot reach the data source at ${baseUrl} (${describe(error)})`,
      })
    }

    const status = response.status
    let json: unknown
    try {
      json = JSON.parse(body)
    } catch {
      if (status === 401 || status === 403) throw unauthorized(endpoint, status)
      if (status >= 400) {
        throw new DataSourceError({
          kind: 'http',
          endpoint,
          status,
          message: `The data source answered HTTP ${status} ${response.statusText}`.trim(),
        })
      }
      throw new DataSourceError({
        kind: 'invalid-response',
        endpoint,
        status,
        message: 'The data source sent something that is not JSON',
      })
    }
    const envelope = envelopeSchema.safeParse(json)
    if (!envelope.success) {
      if (status >= 400) {
        throw new DataSourceError({
          kind: 'http',
          endpoint,
          status,
          message: `The data source answered HTTP ${status}`,
        })
      }
      throw new DataSourceError({
        kind: 'invalid-response',
        endpoint,
        status,
        message: 'The data source answered without the expected envelope',
      })
    }
    const { code, message, data } = envelope.data
    if (!SUCCESS_CODES.has(code)) {
      if (
        status === 401 ||
        status === 403 ||
        LOGIN_REQUIRED_CODES.has(code) ||
        // "-1 from /connect/status means the login is gone" (spec 4.1); a 5xx is the server's trouble.
        (endpoint === '/connect/status' && status < 500)
      ) {
        throw unauthorized(endpoint, status, code, message)
      }
      throw new DataSourceError({
        kind: 'api',
        endpoint,
        status,
        code,
        message: message?.trim() || `The data source refused the request (code ${code})`,
      })
    }
    // Some servers answer a missing login with success and no user.
    if (endpoint === '/connect/status' && (data === null || data === undefined)) {
      throw unauthorized(endpoint, status, code, message)
    }
    // Async: long lists are checked in slices (see tolerantList).
    const parsed = await call.schema.safeParseAsync(data)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new DataSourceError({
        kind: 'invalid-response',
        endpoint,
        status,
        code,
        message: `The data source sent an unexpected answer (${issue ? `${issue.path.join('.') || 'data'}: ${issue.message}` : 'invalid data'})`,
      })
    }
    return endpoint.startsWith('/connect/qr/') ? parsed.data : normaliseImages(parsed.data, baseUrl)
  }

  /**
   * Fetches without letting fetch follow redirects: a redirect is followed by hand, at most MAX_REDIRECTS
   * times and only within the data source's origin, so the `Token` header never leaves it.
   */
  async function fetchSameOrigin(
    url: URL,
    method: string,
    headers: Record<string, string>,
    signal: AbortSignal,
    endpoint: string,
  ): Promise<Response> {
    let target = url
    let verb = method
    for (let hop = 0; ; hop++) {
      const response = await doFetch(target, { method: verb, headers, signal, redirect: 'manual' })
      if (response.type === 'opaqueredirect') {
        throw invalid(
          endpoint,
          response.status,
          'The data source answered with a redirect that cannot be followed',
        )
      }
      if (!REDIRECT_STATUSES.has(response.status)) return response
      await response.body?.cancel().catch(() => {})
      const location = response.headers.get('location')
      let next: URL | undefined
      try {
        next = location ? new URL(location, target) : undefined
      } catch {
        next = undefined
      }
      if (!next) {
        throw invalid(endpoint, response.status, 'The data source redirected without a valid address')
      }
      if (next.origin !== origin) {
        options.log?.warn('redirect to another origin refused', { endpoint, to: next.origin })
        throw invalid(
          endpoint,
          response.status,
          `The data source redirected to another site (${next.origin}); Cadence does not follow it, so your login is not sent there`,
        )
      }
      if (hop >= MAX_REDIRECTS) {
        throw invalid(
          endpoint,
          response.status,
          `The data source redirected more than ${MAX_REDIRECTS} times`,
        )
      }
      // 303 always becomes a GET; the other statuses keep the method (fetch only rewrites POST).
      if (response.status === 303) verb = 'GET'
      target = next
    }
  }

  /** `meta.url` goes to `<audio>`: only http(s) addresses (paths are resolved against the data source). */
  function checkMediaUrl<T extends { meta?: { url?: string } | null }>(song: T): T {
    const raw = song.meta?.url?.trim()
    if (!song.meta || raw === undefined) return song
    if (!raw) {
      song.meta.url = undefined
      return song
    }
    const resolved = mediaUrl(raw, baseUrl)
    if (!resolved) {
      throw invalid(
        '/song/detail',
        undefined,
        `The data source gave a media address that is not http or https (${describeScheme(raw)})`,
      )
    }
    song.meta.url = resolved
    return song
  }

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
        ...o,
      }),

    recommendSongs: (limit?: number, o: RequestOptions = {}) =>
      request({
        path: '/song/recommend',
        query: { limit },
        schema: songList,
        cache: true,
        ...o,
      }),
    /** Never cached: its media URL expires. */
    songDetail: async (id: Id, uid: Id | undefined, br?: number, o: RequestOptions = {}) =>
      checkMediaUrl(
        await request({ path: '/song/detail', query: { id, uid, br }, schema: songSchema, ...o }),
      ),
    likeSong: (id: Id, like = true, o: RequestOptions = {}) => {
      const write = request({
        method: 'PUT',
        path: '/song/like',
        query: { id, like },
        schema: likeResultSchema,
        ...o,
      }).finally(() => {
        clearCache()
        writes.delete(write)
      })
      writes.add(write)
      return write
    },

    recommendArtists: (limit?: number, o: RequestOptions = {}) =>
      request({
        path: '/artist/recommend',
        query: { limit },
        schema: tolerantList(artistSchema),
        cache: true,
        ...o,
      }),
    artistDetail: (id: Id, o: RequestOptions = {}) =>
      request({ path: '/artist/detail', query: { id }, schema: artistDetailSchema, cache: true, ...o }),

    /** A newer search cancels the one still in flight. */
    search: async (keywords: string, limit?: number, o: RequestOptions = {}) => {
      searchController?.abort()
      const controller = new AbortController()
      searchController = controller
      const signal = o.signal ? AbortSignal.any([o.signal, controller.signal]) : controller.signal
      try {
        return await request({
          path: '/search',
          query: { keywords, limit },
          schema: searchSchema,
          signal,
        })
      } finally {
        if (searchController === controller) searchController = undefined
      }
    },
  }
}

/**
 * Counts how deeply JSON nests while the bytes arrive (strings skipped). Works on UTF-8 bytes: quote,
 * backslash and brackets are ASCII, and no byte of a multi-byte character is ASCII.
 */
function createNestingScanner(max: number) {
  let depth = 0
  let inString = false
  let escaped = false
  return (bytes: Uint8Array): boolean => {
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i]
      if (inString) {
        if (escaped) escaped = false
        else if (c === 0x5c) escaped = true
        else if (c === 0x22) inString = false
      } else if (c === 0x22) inString = true
      else if (c === 0x5b || c === 0x7b) {
        if (++depth > max) return true
      } else if (c === 0x5d || c === 0x7d) depth--
    }
    return false
  }
}

/**
 * Reads the body as text, at most `limit` bytes: a larger `Content-Length` is refused before reading, and a
 * body that passes the limit while streaming is cut off at once. Nesting is checked on the way.
 */
async function readCapped(response: Response, limit: number, endpoint: string): Promise<string> {
  const status = response.status
  const tooLarge = (what: string) =>
    invalid(
      endpoint,
      status,
      `The answer is too large (${what}; at most ${Math.round(limit / (1024 * 1024))} MB is read)`,
    )
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => {})
    throw tooLarge(`${Math.round(declared / (1024 * 1024))} MB announced`)
  }
  if (!response.body) return ''
  const reader = response.body.getReader()
  const tooDeep = createNestingScanner(MAX_NESTING)
  // Decoded as it arrives, so each chunk's bytes can go at once (multi-byte characters split across
  // chunks are carried over by the streaming decoder).
  const decoder = new TextDecoder()
  const parts: string[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limit) {
      await reader.cancel().catch(() => {})
      throw tooLarge(`more than ${Math.round(limit / (1024 * 1024))} MB sent`)
    }
    if (tooDeep(value)) {
      await reader.cancel().catch(() => {})
      throw invalid(endpoint, status, 'The data source sent an answer nested too deeply')
    }
    parts.push(decoder.decode(value, { stream: true }))
  }
  parts.push(decoder.decode())
  return parts.join('')
}

/** An absolute http(s) address for `<audio>`, or undefined for any other scheme. */
function mediaUrl(raw: string, baseUrl: string): string | undefined {
  let url: URL
  try {
    url = raw.startsWith('/') ? new URL(raw, baseUrl + '/') : new URL(raw)
  } catch {
    return undefined
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined
}

/** The scheme of an address for a message (never the whole address: it may carry a signature). */
function describeScheme(raw: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]
  return scheme ? `${scheme.toLowerCase()}:` : 'not an address'
}

function invalid(endpoint: string, status: number | undefined, message: string) {
  return new DataSourceError({ kind: 'invalid-response', endpoint, status, message })
}

function cancelled(endpoint: string) {
  return new DataSourceError({ kind: 'cancelled', endpoint, message: 'The request was cancelled' })
}

function unauthorized(endpoint: string, status?: number, code?: number, message?: string) {
  return new DataSourceError({
    kind: 'unauthorized',
    endpoint,
    status,
    code,
    message: message?.trim() || 'You are signed out of this data source. Please log in again.',
  })
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: { code?: string } }).cause
    return cause?.code ?? error.message
  }
  return String(error)
}

function sleep(ms: number, signal?: AbortSignal) {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
  })
}
