import { parseMediaUrl } from '@shared/player/media-url'
import type { Logger } from '../log'
import { MediaError } from './source'
import type { MediaSource } from './source'

/** What the handler reads of a request: Electron's `protocol.handle` passes a `Request`. */
export type MediaRequest = Pick<Request, 'url' | 'method' | 'headers'> & { signal?: AbortSignal }

/**
 * The media scheme's handler, without Electron: a request for `cadence-media://song/<source>/<song>?br=`
 * becomes the song's bytes from the `MediaSource` (streamed, with Range), or an HTTP status with a short
 * text saying why (400 a bad address, 405 not GET/HEAD, 404 no such audio, 403 refused, 502 the data
 * source failed). The glue registers it with `protocol.handle`; the end-to-end harness routes the scheme
 * to it the same way.
 */
export function createMediaHandler(deps: { source: MediaSource; log?: Logger }) {
  return async function handleMedia(request: MediaRequest): Promise<Response> {
    const ref = parseMediaUrl(request.url)
    if (!ref) return failure(400, 'Not a song address')
    const method = request.method.toUpperCase()
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

/**
 * On every answer. The renderer's page (file:// or the dev server) is another origin than the scheme, and
 * Web Audio hears cross-origin media only with CORS approval. Nothing is cached by Chromium (the bytes
 * come from main, which decides about caching).
 */
const COMMON_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Content-Length, Content-Range, Accept-Ranges',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
}

function failure(status: number, message: string, extra: Record<string, string> = {}): Response {
  return new Response(message, {
    status,
    headers: { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', ...extra },
  })
}
