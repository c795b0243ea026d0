import { coverMediaUrl } from '@shared/player/media-url'

/**
 * Covers as pixels. The renderer reads no pixels from a data source's address: a cover's bytes are
 * fetched from main's media scheme (`cadence-media://cover/?src=`, which Electron lets a page fetch:
 * `supportFetchAPI`), which answers the copy kept on disk or fetches the cover under the source's policy
 * (at most 2 MiB of an image type). The bytes are shown from a `blob:` address of the page's own, so the
 * canvas is not tainted. When main has none (refused, not an image, too large: 404), these answer `null`.
 */

/** A cover read that gives up after this long (a stalled cover must not hold anything up). */
export const COVER_LOAD_TIMEOUT_MS = 3000

/**
 * Where the bytes of the cover at `url` are read from: main's scheme for a data source's http(s) address
 * (naming `sourceId`, the source that gave it, when it is not the active one's).
 */
export function readableCoverUrl(url: string, sourceId?: string): string {
  return /^https?:\/\//i.test(url) ? coverMediaUrl(url, sourceId) : url
}

/** The image at `src` once decoded, or `null` when it cannot be. */
function decodeImage(src: string): Promise<HTMLImageElement | null> {
  return new Promise((resolve) => {
    const image = new Image()
    image.decoding = 'async'
    image.onload = () => resolve(image)
    image.onerror = () => resolve(null)
    image.src = src
  })
}

async function readCover(url: string, sourceId?: string): Promise<HTMLImageElement | null> {
  const answer = await fetch(readableCoverUrl(url, sourceId))
  if (!answer.ok) return null
  const bytes = await answer.blob()
  if (!bytes.type.startsWith('image/')) return null
  const local = URL.createObjectURL(bytes)
  try {
    return await decodeImage(local)
  } finally {
    URL.revokeObjectURL(local)
  }
}

/**
 * The cover at `url` as an image whose pixels the page may read (`readableCoverUrl`, then a `blob:`);
 * `null` when it fails or takes longer than `COVER_LOAD_TIMEOUT_MS`.
 */
export function loadCoverImage(url: string, sourceId?: string): Promise<HTMLImageElement | null> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<null>(
    (resolve) => (timer = setTimeout(() => resolve(null), COVER_LOAD_TIMEOUT_MS)),
  )
  const read = readCover(url, sourceId).catch(() => null)
  return Promise.race([read, late]).finally(() => clearTimeout(timer))
}

/** Draws the image into a `size`×`size` canvas and hands the context to `read`; `null` if tainted. */
export function readPixels<T>(
  image: CanvasImageSource,
  size: number,
  read: (context: CanvasRenderingContext2D, canvas: HTMLCanvasElement) => T,
): T | null {
  try {
    const canvas = document.createElement('canvas')
    canvas.width = size
    canvas.height = size
    const context = canvas.getContext('2d', { willReadFrequently: true })
    if (!context) return null
    context.drawImage(image, 0, 0, size, size)
    return read(context, canvas)
  } catch {
    // SecurityError: the canvas is tainted (the image came without CORS approval).
    return null
  }
}

/** Side of the PNG made for a notification icon. */
export const COVER_PNG_SIZE = 128

/** The cover as a small PNG data URI (any format the browser reads, SVG too); `null` when unreadable. */
export async function coverPng(url: string, sourceId?: string): Promise<string | null> {
  const image = await loadCoverImage(url, sourceId)
  if (!image) return null
  return readPixels(image, COVER_PNG_SIZE, (_context, canvas) => canvas.toDataURL('image/png'))
}
