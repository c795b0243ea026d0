import { invalid } from './errors'
import { imageUrl } from './images'

/** Addresses in answers made usable: image fields resolved or dropped, media addresses checked. */

const IMAGE_KEYS = new Set(['cover', 'avatar'])

/**
 * Image fields (`cover`, `avatar`) as the renderer can use them: absolute http(s) or data URLs are kept,
 * paths are resolved against the data source, anything else (`"null"`, `"default"`) is dropped.
 */
export function normaliseImages<T>(value: T, baseUrl: string): T {
  const fix = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) fix(item)
      return
    }
    if (typeof node !== 'object' || node === null) return
    const record = node as Record<string, unknown>
    // for…in, not Object.entries: no array per object on a 10,000-song walk.
    for (const key in record) {
      const child = record[key]
      if (IMAGE_KEYS.has(key) && typeof child === 'string') record[key] = imageUrl(child, baseUrl)
      else if (typeof child === 'object' && child !== null) fix(child)
    }
  }
  fix(value)
  return value
}

/** `meta.url` goes to `<audio>`: only http(s) addresses (paths are resolved against the data source). */
export function checkMediaUrl<T extends { meta?: { url?: string } | null }>(song: T, baseUrl: string): T {
  const raw = song.meta?.url?.trim()
  if (!song.meta || raw === undefined) return song
  if (!raw) {
    song.meta.url = undefined
    return song
  }
  const resolved = mediaUrl(raw, baseUrl)
  if (!resolved) {
    throw invalid(
      '/song/detail',
      undefined,
      `The data source gave a media address that is not http or https (${describeScheme(raw)})`,
    )
  }
  song.meta.url = resolved
  return song
}

/** An absolute http(s) address for `<audio>`, or undefined for any other scheme. */
function mediaUrl(raw: string, baseUrl: string): string | undefined {
  let url: URL
  try {
    url = raw.startsWith('/') ? new URL(raw, baseUrl + '/') : new URL(raw)
  } catch {
    return undefined
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined
}

/** The scheme of an address for a message (never the whole address: it may carry a signature). */
function describeScheme(raw: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]
  return scheme ? `${scheme.toLowerCase()}:` : 'not an address'
}
