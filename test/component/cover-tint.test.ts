import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { ref } from 'vue'
import { sampleCover, tintFromPixels, useCoverTint } from '@renderer/components/now-playing/cover-tint'
import type { Tint } from '@renderer/components/now-playing/cover-tint'
import { coverPng } from '@renderer/services/cover-image'
import { coverMediaUrl } from '@shared/player/media-url'

const pixels = (...rgba: number[][]) => new Uint8ClampedArray(rgba.flat())

afterEach(() => vi.unstubAllGlobals())

describe('cover tint', () => {
  it('takes the hue of a red cover, and saturated pixels outweigh a grey border', () => {
    const tint = tintFromPixels(pixels([220, 30, 30, 255], [128, 128, 128, 255], [128, 128, 128, 255]))
    expect(tint?.hue).toBeLessThan(10)
    expect(tint?.saturation).toBeGreaterThan(20)
    expect(tintFromPixels(pixels([20, 40, 200, 255]))?.hue).toBeGreaterThan(220)
  })

  it('takes one of the colours of a two-colour cover, not the grey between them', () => {
    const green = [40, 200, 90, 255]
    const purple = [110, 40, 180, 255]
    const tint = tintFromPixels(pixels(green, green, green, purple, purple))
    expect(tint?.hue).toBeGreaterThan(120)
    expect(tint?.hue).toBeLessThan(160)
    expect(tint?.saturation).toBeGreaterThan(30)
  })

  it('is neutral for a grey or fully transparent image', () => {
    expect(tintFromPixels(pixels([90, 90, 90, 255]))).toEqual({ hue: 0, saturation: 0 })
    expect(tintFromPixels(pixels([255, 0, 0, 0]))).toBeNull()
  })

  /** Images decode whatever `blob:` address they are given (recorded); anything else fails to load. */
  function stubImages() {
    const loaded: string[] = []
    class LoadingImage {
      onload: (() => void) | null = null
      onerror: (() => void) | null = null
      decoding = ''
      set src(url: string) {
        loaded.push(url)
        queueMicrotask(() => (url.startsWith('blob:') ? this.onload : this.onerror)?.())
      }
    }
    vi.stubGlobal('Image', LoadingImage)
    return loaded
  }
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47])
  const image = () => new Response(PNG, { headers: { 'Content-Type': 'image/png' } })

  it('gives no tint when the canvas is tainted', async () => {
    stubImages()
    vi.stubGlobal('fetch', async () => image())
    const getContext = vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
      drawImage: () => undefined,
      getImageData: () => {
        throw new DOMException('The canvas has been tainted', 'SecurityError')
      },
    } as unknown as CanvasRenderingContext2D)
    expect(await sampleCover('http://elsewhere.example/cover.jpg')).toBeNull()
    getContext.mockRestore()
  })

  it('reads a cover’s pixels from main’s media scheme, never from the data source’s address', async () => {
    const loaded = stubImages()
    const refused = 'http://192.168.1.9/cover.png'
    const fetched: string[] = []
    // Main's scheme: the cover it fetched, or 404 (a refused address); nothing else is fetched.
    vi.stubGlobal('fetch', async (input: string) => {
      fetched.push(String(input))
      if (!String(input).startsWith('cadence-media:')) throw new TypeError('Failed to fetch')
      return String(input) === coverMediaUrl(refused) ? new Response('No cover', { status: 404 }) : image()
    })
    const red = new Uint8ClampedArray(24 * 24 * 4).map((_, i) => [220, 30, 30, 255][i % 4])
    const getContext = vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
      drawImage: () => undefined,
      getImageData: () => ({ data: red }),
    } as unknown as CanvasRenderingContext2D)
    const toDataURL = vi
      .spyOn(HTMLCanvasElement.prototype, 'toDataURL')
      .mockReturnValue('data:image/png;base64,AA==')
    const cover = 'http://192.168.1.20:4000/media/cover/album/7'
    const tint = await sampleCover(cover)
    expect(tint?.hue).toBeLessThan(10)
    expect(tint?.saturation).toBeGreaterThan(20)
    expect(await coverPng(cover)).toBe('data:image/png;base64,AA==')
    // A kept copy's address (offline) is already the scheme's.
    expect(await sampleCover(coverMediaUrl(cover))).not.toBeNull()
    expect(await sampleCover(refused)).toBeNull()
    expect(fetched).toEqual([
      coverMediaUrl(cover),
      coverMediaUrl(cover),
      coverMediaUrl(cover),
      coverMediaUrl(refused),
    ])
    expect(loaded).toHaveLength(3)
    expect(loaded.every((url) => url.startsWith('blob:'))).toBe(true)
    getContext.mockRestore()
    toDataURL.mockRestore()
  })

  it('follows the cover and keeps only the answer for the newest one', async () => {
    const answers = new Map<string, (tint: Tint | null) => void>()
    const url = ref<string | undefined>('a')
    const tint = useCoverTint(url, (u) => new Promise((resolve) => answers.set(u, resolve)))
    url.value = 'b'
    await flushPromises()
    answers.get('b')!({ hue: 200, saturation: 40 })
    answers.get('a')!({ hue: 10, saturation: 40 })
    await flushPromises()
    expect(tint.value).toEqual({ hue: 200, saturation: 40 })
    url.value = undefined
    await flushPromises()
    expect(tint.value).toBeNull()
  })
})
