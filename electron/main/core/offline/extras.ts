import { createHash } from 'node:crypto'
import type { Lyric, Song } from '@shared/api/models'
import type { CacheFs, CacheKey } from '../media-cache'
import { keyString } from '../media-cache'

/** Most bytes of a cover kept beside a download. */
export const MAX_COVER_BYTES = 2 * 1024 * 1024

/** What a download keeps beside its audio, so the song shows and sings offline. */
export interface KeptExtras {
  /** The song as `/song/detail` described it, without `meta.url` (it expires). */
  song: Song
  lyric?: Lyric
  /** File name of the cover inside the extras folder, and its type. */
  cover?: { file: string; type: string }
}

const baseName = (key: Pick<CacheKey, 'sourceId' | 'songId'>) =>
  createHash('sha256')
    .update(keyString({ ...key, bitrate: 0 }))
    .digest('hex')
    .slice(0, 40)

/**
 * Lyrics and covers of downloads, in `<cache>/extras/`: one JSON file per song (the detail and its lyrics)
 * and the cover's bytes, at most 2 MiB of an image type. Keyed by source and song (any bitrate).
 */
export function createExtrasStore(deps: { fs: CacheFs; dir: string; fetch: typeof fetch }) {
  const dir = `${deps.dir}/extras`
  return {
    dir,
    async keep(key: CacheKey, detail: Song): Promise<void> {
      await deps.fs.mkdir(dir, { recursive: true })
      const name = baseName(key)
      const meta = detail.meta ? { ...detail.meta, url: undefined } : undefined
      const kept: KeptExtras = { song: { ...detail, meta }, lyric: detail.meta?.lyric }
      const coverUrl = detail.album?.cover
      if (coverUrl) {
        const cover = await fetchCover(deps.fetch, coverUrl).catch(() => undefined)
        if (cover) {
          await deps.fs.writeFile(`${dir}/${name}.cover`, cover.bytes)
          kept.cover = { file: `${name}.cover`, type: cover.type }
        }
      }
      const temp = `${dir}/${name}.json.part`
      await deps.fs.writeFile(temp, JSON.stringify(kept))
      await deps.fs.rename(temp, `${dir}/${name}.json`)
    },
    async read(key: Pick<CacheKey, 'sourceId' | 'songId'>): Promise<KeptExtras | undefined> {
      try {
        return JSON.parse(await deps.fs.readFile(`${dir}/${baseName(key)}.json`, 'utf8')) as KeptExtras
      } catch {
        return undefined
      }
    },
    async forget(key: Pick<CacheKey, 'sourceId' | 'songId'>): Promise<void> {
      const name = baseName(key)
      await deps.fs.rm(`${dir}/${name}.json`, { force: true })
      await deps.fs.rm(`${dir}/${name}.cover`, { force: true })
    },
    coverPath: (kept: KeptExtras) => (kept.cover ? `${dir}/${kept.cover.file}` : undefined),
  }
}

async function fetchCover(doFetch: typeof fetch, url: string): Promise<{ bytes: Uint8Array; type: string }> {
  const response = await doFetch(url, { signal: AbortSignal.timeout(10_000) })
  const type = response.headers.get('content-type')?.split(';')[0]?.trim() ?? ''
  if (!response.ok || !type.startsWith('image/')) throw new Error('not an image')
  if (Number(response.headers.get('content-length') ?? 0) > MAX_COVER_BYTES) throw new Error('too large')
  const bytes = new Uint8Array(await response.arrayBuffer())
  if (bytes.byteLength > MAX_COVER_BYTES) throw new Error('too large')
  return { bytes, type }
}

export type ExtrasStore = ReturnType<typeof createExtrasStore>
