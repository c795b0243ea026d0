import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { contentRangeHeader, parseRange as parseByteRange, unsatisfiedRangeHeader } from '@shared/http/range'
import type { ByteSpan } from '@shared/http/range'
import type { MediaOpenRequest } from './source'
import type { CachedFile } from '../media-cache'

export type Span = ByteSpan

/** One `bytes=` range of a file of `size` bytes: a span, 'unsatisfiable', or undefined (serve it all). */
export function parseRange(header: string, size: number): Span | 'unsatisfiable' | undefined {
  const range = parseByteRange(header, size)
  return range === 'whole' || range === 'malformed' ? undefined : range
}

/**
 * How to answer `request` for a file of `size` bytes: 200 with all of it, 206 with the asked span and its
 * `Content-Range`, or 416 (a finished answer).
 */
export function planAnswer(
  size: number,
  contentType: string | undefined,
  request: MediaOpenRequest,
): { status: number; headers: Headers; span: Span } | Response {
  const headers = new Headers({
    'Content-Type': contentType ?? 'application/octet-stream',
    'Accept-Ranges': 'bytes',
  })
  let span: Span = { start: 0, end: size - 1 }
  let status = 200
  const asked = request.range ? parseRange(request.range, size) : undefined
  if (asked === 'unsatisfiable') {
    headers.set('Content-Range', unsatisfiedRangeHeader(size))
    return new Response(null, { status: 416, headers })
  }
  if (asked) {
    span = asked
    status = 206
    headers.set('Content-Range', contentRangeHeader(span, size))
  }
  headers.set('Content-Length', String(Math.max(0, span.end - span.start + 1)))
  return { status, headers, span }
}

/**
 * Ranges up to this size are read in one call and answered as bytes: the renderer's reads (its 64 KB
 * header, then its chunks' bytes, fetched up to 30 s ahead: `range-block.ts`) start sooner than through
 * a file stream. Larger ones stream.
 */
export const READ_AT_ONCE_BYTES = 2 * 1024 * 1024

/** A cached file as the answer to the renderer's request: 200, 206 with `Content-Range`, or 416. */
export async function fileResponse(file: CachedFile, request: MediaOpenRequest): Promise<Response> {
  const size = file.entry.size
  const plan = planAnswer(size, file.entry.contentType, request)
  if (plan instanceof Response) return plan
  const { status, headers, span } = plan
  if (request.method === 'HEAD' || size === 0) return new Response(null, { status, headers })
  const length = span.end - span.start + 1
  if (length <= READ_AT_ONCE_BYTES) {
    const bytes = await readSpan(file.path, span.start, length)
    // A file cut short under us (it is checked before serving, so hardly ever): a short body would
    // contradict Content-Length; the stream below fails the same way a network source would.
    if (bytes) return new Response(bytes, { status, headers })
  }
  const stream = createReadStream(file.path, { start: span.start, end: span.end })
  request.signal?.addEventListener('abort', () => stream.destroy(), { once: true })
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status, headers })
}

/** `length` bytes of a file from `start` in one read, or undefined when fewer are there. */
async function readSpan(
  path: string,
  start: number,
  length: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const handle = await open(path, 'r')
  try {
    const bytes = new Uint8Array(length)
    let filled = 0
    while (filled < length) {
      const { bytesRead } = await handle.read(bytes, filled, length - filled, start + filled)
      if (bytesRead === 0) return undefined
      filled += bytesRead
    }
    return bytes
  } finally {
    await handle.close()
  }
}
