import type { z } from 'zod'
import { envelopeSchema } from '@shared/api/models'
import { DataSourceError } from '@shared/errors'
import type { Logger } from '../log'
import { cancelled, invalid, unauthorized } from './errors'
import { normaliseImagesSliced } from './images'
import { readCapped } from './read-capped'
import { parseJsonSliced } from './sliced-json'

/**
 * The client's transport: one `request` that builds the URL, sends the credential, retries an idempotent
 * GET once after a network error, reuses browse answers for a while, follows same-origin redirects by
 * hand, reads the body through the capped reader, checks the envelope and then `data` against the
 * endpoint's schema. Every failure is a `DataSourceError`.
 */

export interface ApiClientOptions {
  baseUrl: string
  /** The raw credential, or undefined when signed out. Sent only in the `Token` header. */
  getCredential: () => string | undefined
  fetch?: typeof fetch
  timeoutMs?: number
  /** How long browse answers are reused. 0 disables the cache. */
  cacheTtlMs?: number
  /** The cache's bound on the answers' bytes (least recently used dropped first). Default 32 MB. */
  cacheMaxBytes?: number
  /** The cache's bound on answers kept. Default 256. */
  cacheMaxEntries?: number
  /** Delay before the one retry of an idempotent GET after a network error. */
  retryDelayMs?: number
  now?: () => number
  log?: Logger
}

export interface RequestOptions {
  signal?: AbortSignal
}

/** One request as an endpoint of the client describes it. */
export interface ApiCall<T extends z.ZodType> {
  method?: 'GET' | 'PUT' | 'POST' | 'DELETE'
  path: string
  query?: Record<string, string | number | boolean | undefined>
  schema: T
  cache?: boolean
  signal?: AbortSignal
  /** An array in the answer whose items stay JSON text (`JsonText`, see `./sliced-json.ts`). */
  keepText?: readonly string[]
}

/**
 * The largest JSON answer read, in bytes. The body is streamed and reading stops as soon as it passes this,
 * so a hostile or broken server cannot fill memory; a 10,000-song playlist is a few MB.
 */
export const MAX_JSON_BYTES = 16 * 1024 * 1024
/** Same-origin redirects followed before giving up; another origin is never followed. */
export const MAX_REDIRECTS = 3
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])
const SUCCESS_CODES = new Set([0, 200])
/** The cache's default bounds: a few long lists or hundreds of small answers. */
export const CACHE_MAX_BYTES = 32 * 1024 * 1024
export const CACHE_MAX_ENTRIES = 256

/** Envelope codes some servers use for "log in first". */
const LOGIN_REQUIRED_CODES = new Set([301, 401])

export function createTransport(options: ApiClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const origin = new URL(baseUrl).origin
  const doFetch = options.fetch ?? globalThis.fetch
  const timeoutMs = options.timeoutMs ?? 10_000
  const cacheTtlMs = options.cacheTtlMs ?? 60_000
  const retryDelayMs = options.retryDelayMs ?? 300
  const now = options.now ?? Date.now
  const cacheMaxBytes = options.cacheMaxBytes ?? CACHE_MAX_BYTES
  const cacheMaxEntries = options.cacheMaxEntries ?? CACHE_MAX_ENTRIES
  /**
   * Browse answers by request, least recently used first (a hit moves to the end), with the bytes each
   * answer was read from (about what it holds: long lists keep their songs as views of those bytes).
   * Bounded: an expired answer is dropped when met or when a new one comes, and past `cacheMaxEntries`
   * answers or `cacheMaxBytes` bytes the least recently used go first.
   */
  const cache = new Map<string, { at: number; value: unknown; bytes: number }>()
  let cacheBytes = 0
  const forget = (key: string) => {
    const entry = cache.get(key)
    if (!entry) return
    cacheBytes -= entry.bytes
    cache.delete(key)
  }
  const remember = (key: string, value: unknown, bytes: number) => {
    forget(key)
    if (bytes > cacheMaxBytes) return
    const at = now()
    for (const [other, entry] of cache) if (at - entry.at >= cacheTtlMs) forget(other)
    cache.set(key, { at, value, bytes })
    cacheBytes += bytes
    for (const [oldest] of cache) {
      if (cacheBytes <= cacheMaxBytes && cache.size <= cacheMaxEntries) break
      forget(oldest)
    }
  }
  /** Bumped by every clear: an answer to a read started before a clear (a like) is not cached after it. */
  let cacheGeneration = 0
  const clearCache = () => {
    cacheGeneration++
    cache.clear()
    cacheBytes = 0
  }

  /** Writes in flight (likes). A read issued meanwhile waits for them, so it never shows the state before. */
  const writes = new Set<Promise<unknown>>()

  async function request<T extends z.ZodType>(call: ApiCall<T>): Promise<z.output<T>> {
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
      if (hit && now() - hit.at < cacheTtlMs) {
        cache.delete(cacheKey)
        cache.set(cacheKey, hit)
        return hit.value as z.output<T>
      }
      if (hit) forget(cacheKey)
    }

    const generation = cacheGeneration
    const attempts = method === 'GET' ? 2 : 1
    let lastError: DataSourceError | undefined
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const { value, bytes } = await send(method, url, credential, call)
        if (call.cache && cacheTtlMs > 0 && generation === cacheGeneration) remember(cacheKey, value, bytes)
        return value
      } catch (error) {
        lastError = error as DataSourceError
        if (lastError.kind !== 'network' || attempt === attempts) break
        options.log?.warn('network error, retrying once', { endpoint: call.path })
        await sleep(retryDelayMs * attempt, call.signal)
        if (call.signal?.aborted) throw cancelled(call.path)
        // Signed out, or the source left this address (the built-in one's process exited, and another may
        // have taken its port) while waiting: the credential is not sent again.
        if (options.getCredential() !== credential) break
      }
    }
    throw lastError!
  }

  async function send<T extends z.ZodType>(
    method: string,
    url: URL,
    credential: string | undefined,
    call: ApiCall<T>,
  ): Promise<{ value: z.output<T>; bytes: number }> {
    const endpoint = call.path
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout
    const headers: Record<string, string> = { Accept: 'application/json' }
    if (credential) headers.Token = `Bearer ${credential}`

    let response: Response | undefined
    let body: Uint8Array
    try {
      response = await fetchSameOrigin(url, method, headers, signal, endpoint)
      body = await readCapped(response, MAX_JSON_BYTES, endpoint)
    } catch (error) {
      if (error instanceof DataSourceError) throw error
      if (call.signal?.aborted) throw cancelled(endpoint)
      // With the status, the answer had begun (the source is there; this answer failed): the offline
      // monitor tells the two apart (`reachOf`).
      const status = response?.status
      const seconds = Math.round(timeoutMs / 1000)
      if (timeout.aborted) {
        throw new DataSourceError({
          kind: 'timeout',
          endpoint,
          status,
          message:
            status === undefined
              ? `The data source did not answer within ${seconds} s`
              : `The data source did not finish its answer within ${seconds} s`,
        })
      }
      throw new DataSourceError({
        kind: 'network',
        endpoint,
        status,
        message:
          status === undefined
            ? `Cannot reach the data source at ${baseUrl} (${describeCause(error)})`
            : `The data source's answer was cut off (${describeCause(error)})`,
      })
    }

    const status = response.status
    let json: unknown
    try {
      // In slices: a whole 50,000-song list in one JSON.parse holds main for ~100 ms.
      json = await parseJsonSliced(body, { keepText: call.keepText })
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
        message: 'The data source sent an answer Cadence cannot read.',
        detail: `Unexpected answer (${issue ? `${issue.path.join('.') || 'data'}: ${issue.message}` : 'invalid data'})`,
      })
    }
    const bytes = body.byteLength
    if (endpoint.startsWith('/connect/qr/')) return { value: parsed.data, bytes }
    await normaliseImagesSliced(parsed.data, baseUrl)
    return { value: parsed.data, bytes }
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

  /** A write (a like, a playlist change): reads issued meanwhile wait for it; it clears the cache when done. */
  function write<T extends z.ZodType>(
    call: ApiCall<T> & { method: 'PUT' | 'POST' | 'DELETE' },
  ): Promise<z.output<T>> {
    const pending = request(call).finally(() => {
      clearCache()
      writes.delete(pending)
    })
    writes.add(pending)
    return pending
  }

  return { baseUrl, request, write, clearCache }
}

export type Transport = ReturnType<typeof createTransport>

function describeCause(error: unknown): string {
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
