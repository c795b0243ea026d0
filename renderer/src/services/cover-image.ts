import { coverMediaUrl } from '@shared/player/media-url'

/**
 * Covers as pixels. The renderer reads no pixels from a data source's address: a cover is loaded from
 * main's media scheme (`cadence-media://cover/?src=`), which answers the copy kept on disk or fetches it
 * under the source's policy (bounded), with the scheme's CORS approval. When main has none (refused, not
 * an image, too large) or the canvas is tainted, these answer `null`.
 */

/** An image load that gives up after this long (a stalled cover must not hold anything up). */
export const COVER_LOAD_TIMEOUT_MS = 3000

/** Where the pixels of the cover at `url` are read from: main's scheme for a data source's http(s) address. */
export function readableCoverUrl(url: string): string {
  return /^https?:\/\//i.test(url) ? coverMediaUrl(url) : url
}

/** Loads the cover at `url` as a CORS image (`readableCoverUrl`); `null` when it fails or takes too long. */
export function loadCorsImage(url: string): Promise<HTMLImageElement | null> {
  return new Promise((resolve) => {
    const image = new Image()
    const timer = setTimeout(() => resolve(null), COVER_LOAD_TIMEOUT_MS)
    image.crossOrigin = 'anonymous'
    image.decoding = 'async'
    image.onload = () => {
      clearTimeout(timer)
      resolve(image)
    }
    image.onerror = () => {
      clearTimeout(timer)
      resolve(null)
    }
    image.src = readableCoverUrl(url)
  })
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
export async function coverPng(url: string): Promise<string | null> {
  const image = await loadCorsImage(url)
  if (!image) return null
  return readPixels(image, COVER_PNG_SIZE, (_context, canvas) => canvas.toDataURL('image/png'))
}
