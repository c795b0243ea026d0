import { visitSliced } from './sliced-json'

const IMAGE_KEYS = ['cover', 'avatar'] as const

/**
 * `normaliseImages` (urls.ts) for answers of any size: the same fix-up of `cover` and `avatar`, walked in
 * slices so a 50,000-song list never holds the event loop for the whole walk.
 */
export function normaliseImagesSliced(value: unknown, baseUrl: string): Promise<void> {
  return visitSliced(value, (record) => {
    for (const key of IMAGE_KEYS) {
      const child = record[key]
      if (typeof child === 'string') record[key] = imageUrl(child, baseUrl)
    }
  })
}

/** An image field as the renderer can use it (see `normaliseImages`), or undefined. */
export function imageUrl(raw: string, baseUrl: string): string | undefined {
  const text = raw.trim()
  if (!text) return undefined
  if (/^data:image\//i.test(text)) return text
  if (/^https?:\/\//i.test(text)) return text
  if (text.startsWith('//')) return `${new URL(baseUrl).protocol}${text}`
  if (text.startsWith('/')) return new URL(text, baseUrl + '/').href
  return undefined
}
