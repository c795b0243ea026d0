import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { Readable } from 'node:stream'
import type { Logger } from '../log'
import { fetchCover } from '../offline/extras'
import { COMMON_HEADERS, failure } from './answers'

/** The cover kept on disk for a cover address (the data source's), or undefined. */
export type CoverSource = (src: string) => Promise<{ path: string; type: string } | undefined>

/**
 * Where main fetches a cover it has not kept: the source the address names (a song of another source),
 * else the one whose pages the renderer shows (the active one), with that source's guarded fetch
 * (`core/net`), so a cover goes only where the source that gave its address may point main.
 */
export interface CoverFetch {
  sourceId: () => string
  fetchFor: (sourceId: string) => typeof fetch
}

/**
 * The image types served from a fetch: raster ones, and SVG because the built-in source's generated
 * covers are SVG (served sandboxed, below).
 */
const FETCHED_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml'])

/** Covers fetched just now, kept in memory: the tint and the notification read the same one at once. */
export const RECENT_COVERS = 8

/** A cover's bytes and type, kept or fetched. */
interface CoverBytes {
  bytes: Uint8Array
  type: string
}

/** Answers a cover: its type, no script or load of its own (`sandbox`), should it be opened as a page. */
function coverAnswer(type: string, size: number, body: BodyInit | null): Response {
  const headers = new Headers({
    ...COMMON_HEADERS,
    'Content-Type': type,
    'Content-Length': String(size),
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  })
  return new Response(body, { status: 200, headers })
}

/**
 * The covers main fetches for the scheme when none is kept: through `fetchCover` (at most 2 MiB, a
 * timeout, an image type of `FETCHED_TYPES`) with the guarded fetch of the source named (else the active
 * one; an unknown source's policy allows public addresses only). The last few are
 * remembered per source and address, and one fetch serves every request for a cover at once; a failure
 * (refused address, not an image, too large, unreachable) is forgotten, so a later request tries again.
 */
export function createCoverFetcher(deps: CoverFetch & { log?: Logger }) {
  const recent = new Map<string, Promise<CoverBytes | undefined>>()
  return (src: string, named?: string): Promise<CoverBytes | undefined> => {
    const sourceId = named ?? deps.sourceId()
    const key = `${sourceId}\n${src}`
    const known = recent.get(key)
    if (known) {
      recent.delete(key)
      recent.set(key, known)
      return known
    }
    const fetched = fetchCover(deps.fetchFor(sourceId), src, {
      accept: (type) => FETCHED_TYPES.has(type),
    }).then(
      (cover) => cover,
      (error: unknown) => {
        deps.log?.debug('cover not fetched', { source: sourceId, error: String(error) })
        if (recent.get(key) === fetched) recent.delete(key)
        return undefined
      },
    )
    recent.set(key, fetched)
    for (const old of recent.keys()) {
      if (recent.size <= RECENT_COVERS) break
      recent.delete(old)
    }
    return fetched
  }
}

export type CoverFetcher = ReturnType<typeof createCoverFetcher>

/**
 * A cover as the answer on `cadence-media://cover/?src=`: the file kept on disk with its type, else the
 * cover fetched now (`fetched`), else 404 (the image shows its placeholder). Either carries the scheme's
 * CORS approval, so the renderer reads its pixels (the now-playing tint, the notification's PNG) without
 * loading anything from the data source's address itself.
 */
export async function coverResponse(
  deps: { covers?: CoverSource; fetched?: CoverFetcher },
  src: string,
  method: string,
  signal?: AbortSignal,
  sourceId?: string,
): Promise<Response> {
  const kept = await deps.covers?.(src).catch(() => undefined)
  const size =
    kept &&
    (await stat(kept.path).then(
      (s) => s.size,
      () => undefined,
    ))
  if (kept && size !== undefined) {
    if (method === 'HEAD') return coverAnswer(kept.type, size, null)
    const stream = createReadStream(kept.path)
    signal?.addEventListener('abort', () => stream.destroy(), { once: true })
    return coverAnswer(kept.type, size, Readable.toWeb(stream) as ReadableStream<Uint8Array>)
  }
  const cover = await deps.fetched?.(src, sourceId)
  if (!cover) return failure(404, 'No cover for this address')
  // `fetchCover` builds its bytes on an ArrayBuffer of their own; the Response copies them.
  const body = method === 'HEAD' ? null : (cover.bytes as Uint8Array<ArrayBuffer>)
  return coverAnswer(cover.type, cover.bytes.byteLength, body)
}
