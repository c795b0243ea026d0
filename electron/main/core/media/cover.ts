import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { COMMON_HEADERS, failure } from './answers'

/** The cover kept on disk for a cover address (the data source's), or undefined. */
export type CoverSource = (src: string) => Promise<{ path: string; type: string } | undefined>

/**
 * A kept cover as the answer to an `<img>` on `cadence-media://cover/?src=`: the file with its type, or
 * 404 when none is kept (the image shows its placeholder). Covers may be SVG: the answer forbids any
 * script or load of its own (`sandbox`), should it ever be opened as a document.
 */
export async function coverResponse(
  covers: CoverSource,
  src: string,
  method: string,
  signal?: AbortSignal,
): Promise<Response> {
  const kept = await covers(src).catch(() => undefined)
  const size =
    kept &&
    (await stat(kept.path).then(
      (s) => s.size,
      () => undefined,
    ))
  if (!kept || size === undefined) return failure(404, 'No cover kept for this address')
  const headers = new Headers({
    ...COMMON_HEADERS,
    'Content-Type': kept.type,
    'Content-Length': String(size),
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  })
  if (method === 'HEAD') return new Response(null, { status: 200, headers })
  const stream = createReadStream(kept.path)
  signal?.addEventListener('abort', () => stream.destroy(), { once: true })
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status: 200, headers })
}
