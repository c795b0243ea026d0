import { ref, watch } from 'vue'
import type { Ref } from 'vue'
import { loadCoverImage, readPixels } from '@renderer/services/cover-image'

/**
 * The page tint of the now-playing screen, taken from the cover: the image is drawn small in a canvas and
 * its pixels averaged, saturated ones counting more (a grey border should not wash out a red cover).
 * The pixels come through main's media scheme (`loadCoverImage`), never from the data source's address;
 * when main has no cover to give (or the canvas is tainted and `getImageData` throws), the tint is
 * neutral (`null`).
 */

/** A hue (0–360) and saturation (0–100) for the page; lightness is the theme's business. */
export interface Tint {
  hue: number
  saturation: number
}

/** Side of the square the cover is scaled down to before sampling. */
export const SAMPLE_SIZE = 24

const BINS = 12

/**
 * The cover's dominant colour as a tint: pixels are sorted into 12 hue bins weighted by saturation (a grey
 * border counts little), and the heaviest bin's average colour wins, so a two-colour cover gives one of
 * its colours rather than the grey between them. `null` when there is nothing to go on (transparent).
 */
export function tintFromPixels(data: ArrayLike<number>): Tint | null {
  const bins = Array.from({ length: BINS }, () => ({ r: 0, g: 0, b: 0, weight: 0 }))
  const all = { r: 0, g: 0, b: 0, weight: 0 }
  for (let i = 0; i + 3 < data.length; i += 4) {
    const alpha = data[i + 3] / 255
    if (alpha < 0.5) continue
    const [r, g, b] = [data[i], data[i + 1], data[i + 2]]
    const chroma = (Math.max(r, g, b) - Math.min(r, g, b)) / 255
    // Saturated pixels weigh up to 8 times a grey one.
    const weight = alpha * (1 + 7 * chroma)
    const bin = bins[Math.min(BINS - 1, Math.floor((hueOf(r, g, b) / 360) * BINS))]
    for (const into of [bin, all]) {
      into.r += r * weight
      into.g += g * weight
      into.b += b * weight
      into.weight += weight
    }
  }
  if (all.weight === 0) return null
  const best = bins.reduce((a, b) => (b.weight > a.weight ? b : a))
  const from = best.weight > all.weight * 0.2 ? best : all
  return toTint(from.r / from.weight, from.g / from.weight, from.b / from.weight)
}

function hueOf(r: number, g: number, b: number): number {
  const max = Math.max(r, g, b)
  const delta = max - Math.min(r, g, b)
  if (delta === 0) return 0
  const hue = max === r ? ((g - b) / delta) % 6 : max === g ? (b - r) / delta + 2 : (r - g) / delta + 4
  return (hue * 60 + 360) % 360
}

function toTint(r: number, g: number, b: number): Tint {
  const max = Math.max(r, g, b) / 255
  const min = Math.min(r, g, b) / 255
  const lightness = (max + min) / 2
  const delta = max - min
  if (delta < 1e-6) return { hue: 0, saturation: 0 }
  const saturation = delta / (1 - Math.abs(2 * lightness - 1))
  // Capped, so the page stays a tint and text stays readable.
  return { hue: Math.round(hueOf(r, g, b)), saturation: Math.round(Math.min(1, saturation) * 70) }
}

/**
 * Loads the cover at `url` through main's scheme (naming the song's `sourceId`) and samples it; `null`
 * on any failure (none, tainted).
 */
export async function sampleCover(url: string, sourceId?: string): Promise<Tint | null> {
  const image = await loadCoverImage(url, sourceId)
  if (!image) return null
  return readPixels(image, SAMPLE_SIZE, (context) =>
    tintFromPixels(context.getImageData(0, 0, SAMPLE_SIZE, SAMPLE_SIZE).data),
  )
}

/** The tint of the cover at `url`, following it; neutral while loading and when it cannot be read. */
export function useCoverTint(
  url: Ref<string | undefined>,
  sample: (url: string) => Promise<Tint | null> = sampleCover,
): Ref<Tint | null> {
  const tint = ref<Tint | null>(null)
  let asked = 0
  watch(
    url,
    async (next) => {
      const mine = ++asked
      if (!next) return void (tint.value = null)
      const answer = await sample(next)
      if (mine === asked) tint.value = answer
    },
    { immediate: true },
  )
  return tint
}
