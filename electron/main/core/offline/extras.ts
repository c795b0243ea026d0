import { createHash } from 'node:crypto'
import type { Lyric, Song } from '@shared/api/models'
import type { CacheFs, CacheKey } from '../media-cache'
import { keyString } from '../media-cache'

/** Most bytes of a cover kept beside a song. */
export const MAX_COVER_BYTES = 2 * 1024 * 1024

/** Songs whose kept details stay parsed in memory (a few KB each). */
const RECENT_EXTRAS = 200

/** Image types kept, with the file extension they are kept under. */
const COVER_TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
  'image/bmp': 'bmp',
}

/** What a song on disk keeps beside its audio, so it shows and sings offline. */
export interface KeptExtras {
  /** The song as `/song/detail` described it, without `meta.url` (it expires). */
  song: Song
  lyric?: Lyric
  /** Its cover (`covers/<hash>.<ext>` inside the extras folder), its type and the address it came from. */
  cover?: { file: string; type: string; url?: string }
}

/** A kept cover: the file to serve, and its type. */
export interface KeptCover {
  path: string
  type: string
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 40)
const baseName = (key: Pick<CacheKey, 'sourceId' | 'songId'>) => hashOf(keyString({ ...key, bitrate: 0 }))

/**
 * Lyrics and covers of the songs on disk, in `<cache>/extras/`: one JSON file per song (its details and
 * lyrics, keyed by source and song, any bitrate) and, in `covers/`, one file per cover address (every song
 * of an album shares it): at most 2 MiB of an image type, fetched once. The media scheme serves a cover
 * by its address (`cadence-media://cover/?src=`), so covers show without the data source. A downloaded
 * playlist's or album's own header cover is kept the same way (`keepCover`). A cover no song and no
 * download refers to any more is deleted by `sweep()` (at the next start after a song or a download went).
 */
export function createExtrasStore(deps: {
  fs: CacheFs
  dir: string
  fetch: typeof fetch
  /** The fetch for a source's covers, under that source's address policy (default: `fetch`). */
  fetchFor?: (sourceId: string) => typeof fetch
}) {
  const dir = `${deps.dir}/extras`
  const coverDir = `${dir}/covers`
  /** Written when a song's extras go: its cover may now be unused (checked by `sweep`). */
  const sweepMark = `${coverDir}/.sweep`

  /**
   * The last songs read or kept, parsed: starting a cached song (`player:resolve` from disk) reads no
   * file for them. Not for the songs' sake (each is one small file), for the start's.
   */
  const recent = new Map<string, KeptExtras>()
  const remember = (name: string, kept: KeptExtras) => {
    recent.delete(name)
    recent.set(name, kept)
    for (const old of recent.keys()) {
      if (recent.size <= RECENT_EXTRAS) break
      recent.delete(old)
    }
  }

  /** The kept file of a cover address, if any (a cover of any image type). */
  const findCover = async (url: string): Promise<KeptCover | undefined> => {
    const hash = hashOf(url)
    for (const [type, ext] of Object.entries(COVER_TYPES)) {
      const path = `${coverDir}/${hash}.${ext}`
      const found = await deps.fs.stat(path).then(
        () => true,
        () => false,
      )
      if (found) return { path, type }
    }
    return undefined
  }

  const markSweep = async () => {
    await deps.fs.mkdir(coverDir, { recursive: true })
    await deps.fs.writeFile(sweepMark, '')
  }

  /**
   * The covers being kept now, by source and address: the songs of an album finish downloading together
   * and share one cover, which is fetched once (two writers of one `.part` file would also race to its
   * rename); a cover is fetched only for the source that named it, under that source's policy, never
   * joined by another source naming the same address.
   */
  const keeping = new Map<string, Promise<KeptExtras['cover']>>()

  /** The cover kept for `url`, fetching it for `sourceId` when it is not yet. */
  const keepCover = (url: string, sourceId: string | undefined): Promise<KeptExtras['cover']> => {
    const job = `${sourceId ?? ''}\n${url}`
    const running = keeping.get(job)
    if (running) return running
    const kept = keepCoverOnce(url, sourceId).finally(() => keeping.delete(job))
    keeping.set(job, kept)
    return kept
  }

  const keepCoverOnce = async (url: string, sourceId: string | undefined): Promise<KeptExtras['cover']> => {
    const kept = await findCover(url)
    if (kept) return { file: kept.path.slice(dir.length + 1), type: kept.type, url }
    const doFetch = sourceId !== undefined && deps.fetchFor ? deps.fetchFor(sourceId) : deps.fetch
    const cover = await fetchCover(doFetch, url).catch(() => undefined)
    const ext = cover && COVER_TYPES[cover.type]
    if (!cover || !ext) return undefined
    await deps.fs.mkdir(coverDir, { recursive: true })
    const file = `covers/${hashOf(url)}.${ext}`
    const temp = `${dir}/${file}.part`
    await deps.fs.writeFile(temp, cover.bytes)
    await deps.fs.rename(temp, `${dir}/${file}`)
    return { file, type: cover.type, url }
  }

  return {
    dir,
    async keep(key: CacheKey, detail: Song): Promise<void> {
      await deps.fs.mkdir(dir, { recursive: true })
      const name = baseName(key)
      const meta = detail.meta ? { ...detail.meta, url: undefined } : undefined
      const kept: KeptExtras = { song: { ...detail, meta }, lyric: detail.meta?.lyric }
      const coverUrl = detail.album?.cover
      if (coverUrl && /^https?:\/\//i.test(coverUrl)) kept.cover = await keepCover(coverUrl, key.sourceId)
      const temp = `${dir}/${name}.json.part`
      await deps.fs.writeFile(temp, JSON.stringify(kept))
      await deps.fs.rename(temp, `${dir}/${name}.json`)
      remember(name, kept)
    },
    async read(key: Pick<CacheKey, 'sourceId' | 'songId'>): Promise<KeptExtras | undefined> {
      const name = baseName(key)
      const known = recent.get(name)
      if (known) return known
      try {
        const kept = JSON.parse(await deps.fs.readFile(`${dir}/${name}.json`, 'utf8')) as KeptExtras
        remember(name, kept)
        return kept
      } catch {
        return undefined
      }
    },
    async forget(key: Pick<CacheKey, 'sourceId' | 'songId'>): Promise<void> {
      const name = baseName(key)
      recent.delete(name)
      await deps.fs.rm(`${dir}/${name}.json`, { force: true })
      // A cover kept per song (the older layout, named after the song) goes too.
      await deps.fs.rm(`${dir}/${name}.cover`, { force: true })
      await markSweep()
    },
    /**
     * Keeps the cover at an http(s) address that is not a song's (a downloaded playlist's or album's
     * header), named by `sourceId`; it stays while `sweep` is told a download refers to it.
     */
    async keepCover(url: string, sourceId?: string): Promise<void> {
      if (/^https?:\/\//i.test(url)) await keepCover(url, sourceId)
    },
    /** A download that may have referred to a cover went: the next `sweep` looks. */
    markSweep,
    /** The kept cover of a cover address (the media scheme's `cover` route), or undefined. */
    cover: (url: string) => findCover(url),
    coverPath: (kept: KeptExtras) => (kept.cover ? `${dir}/${kept.cover.file}` : undefined),
    /**
     * Deletes the covers no kept song refers to and none of `inUse` (the cover addresses downloads still
     * refer to) names, when a song or a download went since the last sweep (reads every song's JSON once:
     * run it off the start path).
     */
    async sweep(inUse: Iterable<string> = []): Promise<number> {
      const marked = await deps.fs.stat(sweepMark).then(
        () => true,
        () => false,
      )
      if (!marked) return 0
      await deps.fs.rm(sweepMark, { force: true })
      const used = new Set<string>()
      const usedHashes = new Set([...inUse].map(hashOf))
      for (const name of await deps.fs.readdir(dir).catch(() => [] as string[])) {
        if (!name.endsWith('.json')) continue
        try {
          const kept = JSON.parse(await deps.fs.readFile(`${dir}/${name}`, 'utf8')) as KeptExtras
          if (kept.cover?.file) used.add(kept.cover.file)
        } catch {
          // Unreadable: it keeps nothing.
        }
      }
      let removed = 0
      for (const name of await deps.fs.readdir(coverDir).catch(() => [] as string[])) {
        if (name.startsWith('.') || used.has(`covers/${name}`)) continue
        const [hash, ext, ...rest] = name.split('.')
        if (hash && ext && !rest.length && usedHashes.has(hash)) continue
        await deps.fs.rm(`${coverDir}/${name}`, { force: true })
        removed++
      }
      return removed
    },
  }
}

/**
 * A cover's bytes: an image type (`accept`), at most `MAX_COVER_BYTES` (a larger `Content-Length` is not
 * read, a body passing it is cut off at once), within `timeoutMs` (10 s). Main reads every cover it
 * fetches through this (the notification's too).
 */
export async function fetchCover(
  doFetch: typeof fetch,
  url: string,
  { timeoutMs = 10_000, accept = (type: string) => type.startsWith('image/') } = {},
): Promise<{ bytes: Uint8Array; type: string }> {
  const response = await doFetch(url, { signal: AbortSignal.timeout(timeoutMs) })
  const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? ''
  const tooLarge = Number(response.headers.get('content-length') ?? 0) > MAX_COVER_BYTES
  if (!response.ok || !accept(type) || tooLarge || !response.body) {
    await response.body?.cancel().catch(() => undefined)
    throw new Error('not an image of at most 2 MiB')
  }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > MAX_COVER_BYTES) {
      await reader.cancel().catch(() => undefined)
      throw new Error('too large')
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return { bytes, type }
}

export type ExtrasStore = ReturnType<typeof createExtrasStore>
