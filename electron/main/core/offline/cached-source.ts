import { createReadStream } from 'node:fs'
import { Readable } from 'node:stream'
import type { MediaRef } from '@shared/player/media-url'
import type { Logger } from '../log'
import type { MediaOpenRequest, MediaSource } from '../media'
import { MediaError } from '../media'
import type { CacheKey, CachedFile } from '../media-cache'

export interface CachedSourceDeps {
  /** The network source (issue 22): what plays when the cache has no file. */
  inner: MediaSource
  /** A complete, checked file for the song, or undefined (a damaged one is dropped, not served). */
  playable: (key: CacheKey) => Promise<CachedFile | undefined>
  /** Fetches the song into the cache in the background (one fetch however many ask). */
  fill: (key: CacheKey) => void
  isOffline: () => boolean
  log: Logger
}

/** The message the media scheme answers (503) for a song that is not on this computer while offline. */
export const NOT_OFFLINE_MEDIA = 'Not available offline'

/**
 * The media scheme's source with the cache in front: a song on disk (played before, or downloaded) is
 * served from its file with Range and no request to the data source; any other is streamed from the
 * network as before while the cache fetches its own copy, so the next play is from disk. Offline, a song
 * that is not on disk is a 503 (the player re-resolves it and skips it with the reason).
 */
export function createCachedSource(deps: CachedSourceDeps): MediaSource {
  return {
    async open(ref: MediaRef, request: MediaOpenRequest): Promise<Response> {
      const key: CacheKey = { sourceId: ref.sourceId, songId: ref.songId, bitrate: ref.br }
      const file = await deps.playable(key)
      if (file) return fileResponse(file, request)
      if (deps.isOffline()) throw new MediaError(503, NOT_OFFLINE_MEDIA)
      deps.fill(key)
      return deps.inner.open(ref, request)
    },
  }
}

type Span = { start: number; end: number }

/** One `bytes=` range of a file of `size` bytes: a span, 'unsatisfiable', or undefined (serve it all). */
export function parseRange(header: string, size: number): Span | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match) return undefined // several ranges or nonsense: the whole file, as a server may answer
  const [, from, to] = match
  if (from === '' && to === '') return undefined
  if (from === '') {
    const suffix = Number(to)
    if (suffix === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(from)
  if (start >= size) return 'unsatisfiable'
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1)
  if (end < start) return undefined
  return { start, end }
}

/** A cached file as the answer to the renderer's request: 200, 206 with `Content-Range`, or 416. */
export function fileResponse(file: CachedFile, request: MediaOpenRequest): Response {
  const size = file.entry.size
  const headers = new Headers({
    'Content-Type': file.entry.contentType ?? 'application/octet-stream',
    'Accept-Ranges': 'bytes',
  })
  let span: Span = { start: 0, end: size - 1 }
  let status = 200
  const asked = request.range ? parseRange(request.range, size) : undefined
  if (asked === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${size}`)
    return new Response(null, { status: 416, headers })
  }
  if (asked) {
    span = asked
    status = 206
    headers.set('Content-Range', `bytes ${span.start}-${span.end}/${size}`)
  }
  headers.set('Content-Length', String(Math.max(0, span.end - span.start + 1)))
  if (request.method === 'HEAD' || size === 0) return new Response(null, { status, headers })
  const stream = createReadStream(file.path, { start: span.start, end: span.end })
  request.signal?.addEventListener('abort', () => stream.destroy(), { once: true })
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status, headers })
}
