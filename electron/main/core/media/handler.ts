import { parseCoverMediaUrl, parseCoverSource, parseMediaUrl } from '@shared/player/media-url'
import type { Logger } from '../log'
import { coverResponse, createCoverFetcher } from './cover'
import { COMMON_HEADERS, failure } from './answers'
import type { CoverFetch, CoverSource } from './cover'
import { MediaError } from './source'
import type { MediaSource } from './source'

/** What the handler reads of a request: Electron's `protocol.handle` passes a `Request`. */
export type MediaRequest = Pick<Request, 'url' | 'method' | 'headers'> & { signal?: AbortSignal }

/**
 * The media scheme's handler, without Electron: a request for `cadence-media://song/<source>/<song>?br=`
 * becomes the song's bytes from the `MediaSource` (streamed, with Range), or an HTTP status with a short
 * text saying why (400 a bad address, 405 not GET/HEAD, 404 no such audio, 403 refused, 502 the data
 * source failed). `cadence-media://cover/?src=` is a cover kept on disk (`covers`), else fetched now
 * under the policy of the source it names (`&source=`; else the active one's) (`coverFetch`, at most
 * 2 MiB of an image type), else 404. The glue
 * registers it with `protocol.handle`; the end-to-end harness routes the scheme to it the same way.
 */
export function createMediaHandler(deps: {
  source: MediaSource
  covers?: CoverSource
  coverFetch?: CoverFetch
  log?: Logger
}) {
  const fetched = deps.coverFetch && createCoverFetcher({ ...deps.coverFetch, log: deps.log })
  return async function handleMedia(request: MediaRequest): Promise<Response> {
    const method = request.method.toUpperCase()
    const cover = parseCoverMediaUrl(request.url)
    if (cover !== undefined && (deps.covers || fetched)) {
      if (method !== 'GET' && method !== 'HEAD')
        return failure(405, 'Only GET and HEAD', { Allow: 'GET, HEAD' })
      const sourceId = parseCoverSource(request.url)
      return coverResponse({ covers: deps.covers, fetched }, cover, method, request.signal, sourceId)
    }
    const ref = parseMediaUrl(request.url)
    if (!ref) return failure(400, 'Not a song address')
    if (method !== 'GET' && method !== 'HEAD')
      return failure(405, 'Only GET and HEAD', { Allow: 'GET, HEAD' })
    try {
      const answer = await deps.source.open(ref, {
        method,
        range: request.headers.get('range') ?? undefined,
        signal: request.signal,
      })
      const headers = new Headers(answer.headers)
      for (const [name, value] of Object.entries(COMMON_HEADERS)) headers.set(name, value)
      return new Response(method === 'HEAD' ? null : answer.body, { status: answer.status, headers })
    } catch (error) {
      if (error instanceof MediaError) {
        deps.log?.info('media refused', { song: ref.songId, status: error.status, reason: error.message })
        return failure(error.status, error.message)
      }
      if (request.signal?.aborted) return failure(499, 'Cancelled')
      deps.log?.warn('media failed', { song: ref.songId, error: String(error) })
      return failure(502, 'The song’s audio could not be loaded')
    }
  }
}

export type MediaHandler = ReturnType<typeof createMediaHandler>
