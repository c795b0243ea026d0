import { DataSourceError } from '@shared/errors'
import type { MediaRef } from '@shared/player/media-url'
import { MediaError } from './source'
import type { MediaOpenRequest, MediaSource } from './source'
import { lateFetch } from '../ports'
import { BlockedAddressError } from '../net'
import type { SourceFetch } from '../net'
import { createUrlCache, refKey } from './song-url'
import type { KnownUrl } from './song-url'

export { SIGNED_URL_MAX_AGE_MS } from './song-url'

/** Headers of the upstream answer the renderer may see; nothing else (no cookies, no server details). */
const PASSED_HEADERS = [
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'last-modified',
  'etag',
]

export interface NetworkSourceDeps {
  /**
   * `/song/detail` for the song at the bitrate, on the data source the ref names: the signed media URL
   * (`meta.url`), or a `MediaError`/`DataSourceError` when there is none.
   */
  resolve: (ref: MediaRef) => Promise<string>
  fetch?: typeof fetch
  /** The fetch for the media a source names, under that source's address policy (the core's `net`). */
  fetchFor?: SourceFetch
  now?: () => number
}

export type NetworkSource = MediaSource & {
  /** A URL `player:resolve` just got: the first play needs no second `/song/detail`. */
  remember(ref: MediaRef, url: string): void
}

/**
 * Streams a song from its signed URL: the renderer's Range goes upstream as is, the body is passed through
 * without buffering, and an expired URL (401, 403, 410) is resolved once more and asked again, so the
 * renderer sees one address that never expires.
 */
export function createNetworkSource(deps: NetworkSourceDeps): NetworkSource {
  const fetchImpl = lateFetch(deps.fetch)
  const fetchFor = deps.fetchFor ?? (() => fetchImpl)
  const now = deps.now ?? Date.now
  const urls = createUrlCache<KnownUrl>({ now })

  function signedUrl(ref: MediaRef, fresh: boolean): Promise<string> {
    const key = refKey(ref)
    const known = fresh ? undefined : urls.get(key)
    if (known) return Promise.resolve(known.url)
    const at = now()
    return urls
      .resolve(key, () => deps.resolve(ref).then((url) => ({ url, at }), rethrowAsMediaError))
      .then((resolved) => resolved.url)
  }

  async function ask(ref: MediaRef, url: string, request: MediaOpenRequest): Promise<Response> {
    try {
      return await fetchFor(ref.sourceId)(url, {
        method: request.method,
        headers: request.range ? { Range: request.range } : {},
        redirect: 'follow',
        signal: request.signal,
      })
    } catch (error) {
      if (request.signal?.aborted) throw error
      if (error instanceof BlockedAddressError) throw new MediaError(403, error.message)
      throw new MediaError(502, `The data source's media server could not be reached (${String(error)})`)
    }
  }

  return {
    remember(ref, url) {
      urls.remember(refKey(ref), { url, at: now() })
    },
    async open(ref, request) {
      let answer = await ask(ref, await signedUrl(ref, false), request)
      if (isExpired(answer.status)) {
        await answer.body?.cancel().catch(() => undefined)
        answer = await ask(ref, await signedUrl(ref, true), request)
      }
      const status = answer.status
      if (status === 200 || status === 206 || status === 416) return passThrough(answer)
      await answer.body?.cancel().catch(() => undefined)
      if (isExpired(status)) throw new MediaError(403, 'The data source refused the song’s audio')
      if (status === 404 || status === 410)
        throw new MediaError(404, 'The data source has no audio for this song')
      throw new MediaError(502, `The data source's media server answered HTTP ${status}`)
    },
  }
}

function isExpired(status: number): boolean {
  return status === 401 || status === 403 || status === 410
}

function passThrough(answer: Response): Response {
  const headers = new Headers()
  for (const name of PASSED_HEADERS) {
    const value = answer.headers.get(name)
    if (value !== null) headers.set(name, value)
  }
  return new Response(answer.body, { status: answer.status, headers })
}

/** What `/song/detail` failing means for the renderer's media request. */
function rethrowAsMediaError(error: unknown): never {
  if (error instanceof MediaError) throw error
  if (error instanceof DataSourceError) {
    if (error.kind === 'unauthorized') throw new MediaError(403, error.message)
    if (error.kind === 'api' || error.kind === 'invalid-response') throw new MediaError(404, error.message)
    if (error.kind === 'http' && error.status !== undefined && error.status < 500) {
      throw new MediaError(error.status === 404 ? 404 : 403, error.message)
    }
    if (error.kind === 'cancelled') throw new MediaError(499, error.message)
  }
  throw new MediaError(502, error instanceof Error ? error.message : String(error))
}
