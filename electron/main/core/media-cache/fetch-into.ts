import type { Logger } from '../log'
import type { Timers } from '../ports'
import type { CacheEntry, CacheKey } from './cache-index'
import { fileNameFor, keyString } from './cache-index'
import type { CachedFile, FillOptions, MediaOrigin } from './cache-types'
import { MediaCacheError } from './cache-types'
import type { CacheFs } from './fs-port'
import { isDiskFull } from './fs-port'
import type { LiveFill } from './live-fill'
import type { MediaLimits } from './limits'
import { discardPartial, partialPath, sidecarPath } from './partial'
import { transfer } from './transfer'
import type { Transferred } from './transfer'

/** What one fetch into the cache needs of the cache around it. */
export interface FetchIntoDeps {
  fs: CacheFs
  dir: string
  fetch: typeof fetch
  log: Logger
  now: () => number
  timers: Timers
  maxBytes: () => number
  /** The byte cap, free-space reserve and deadlines of every transfer. */
  limits: MediaLimits
  /** Free bytes on the cache's disk (undefined: unknown). */
  freeSpace: () => Promise<number | undefined>
  /** The cache was closed (the app quits): nothing is written any more. */
  closed: () => boolean
  /** The song is (or is to be) a download: its partial file is kept when a try fails. */
  pinned: (k: string) => boolean
  /** Evicts played songs until they, and the others being fetched, fit in `limit` bytes (never `keep`). */
  evictTo: (limit: number, keep?: string) => Promise<void>
  /** The disk filled up: the cache shrinks. */
  diskFull: () => Promise<void>
  /** A complete, checked file joins the index. */
  commit: (entry: CacheEntry) => void
}

/**
 * Fetches one song's file into the cache: written to its `.partial` (carrying on from one an earlier try
 * left), checked, renamed to its cache name and indexed. A full disk (or one that would be left with less
 * than the reserve), a failed check or a file too large leave nothing behind; any other failure keeps the
 * partial file for the next try of a download (or of whoever left it), and deletes one this try began for
 * a played song.
 */
export async function fetchInto(
  deps: FetchIntoDeps,
  key: CacheKey,
  origin: MediaOrigin,
  fill: FillOptions,
  live: LiveFill,
): Promise<CachedFile> {
  const { fs, dir } = deps
  const k = keyString(key)
  const pinned = () => Boolean(fill.pin) || deps.pinned(k)
  if (!pinned() && origin.size !== undefined && origin.size > deps.maxBytes()) {
    throw new MediaCacheError('too-large', 'The file is larger than the whole cache')
  }
  // Make room first when the size is known, so the write does not fill the disk with songs we would evict.
  if (!pinned() && origin.size !== undefined)
    await deps.evictTo(Math.max(0, deps.maxBytes() - origin.size), k)
  const file = fileNameFor(key)
  const path = `${dir}/${file}`
  const partial = partialPath(path)
  let hadPartial = false
  let written: Transferred
  try {
    if (deps.closed()) throw new MediaCacheError('cancelled', 'The cache is closed')
    const folder = fs.mkdir(dir, { recursive: true })
    folder.catch(() => undefined) // awaited (and reported) by the transfer before it writes
    written = await transfer({
      fs,
      fetch: deps.fetch,
      origin,
      partial,
      live,
      fill,
      maxBytes: deps.maxBytes,
      log: deps.log,
      limits: deps.limits,
      freeSpace: deps.freeSpace,
      timers: deps.timers,
      folder,
      onPrefix: (size) => (hadPartial = size > 0),
      // A download that joins a played song's copy lifts the cap for it.
      capped: () => !pinned(),
    })
    if (deps.closed()) throw new MediaCacheError('cancelled', 'The cache is closed')
  } catch (error) {
    const lowSpace = error instanceof MediaCacheError && error.reason === 'disk-full'
    const worthKeeping =
      !isDiskFull(error) &&
      !(
        error instanceof MediaCacheError &&
        (error.reason === 'corrupt' || error.reason === 'too-large' || lowSpace)
      )
    if (!worthKeeping || !(pinned() || hadPartial)) await discardPartial(fs, partial)
    if (isDiskFull(error) || lowSpace) {
      await deps.diskFull()
      throw lowSpace ? error : new MediaCacheError('disk-full', 'The disk is full')
    }
    if (error instanceof MediaCacheError) throw error
    if (fill.signal?.aborted) throw new MediaCacheError('cancelled', 'Cancelled')
    throw new MediaCacheError('network', `The audio could not be saved: ${String(error)}`)
  }
  await fs.rename(partial, path)
  await fs.rm(sidecarPath(partial), { force: true }).catch(() => undefined)
  const st = await fs.stat(path)
  const entry: CacheEntry = {
    sourceId: key.sourceId,
    songId: key.songId,
    bitrate: key.bitrate,
    file,
    size: written.size,
    md5: written.md5,
    mtimeMs: st.mtimeMs,
    lastPlayed: deps.now(),
    pinned: pinned(),
    contentType: written.contentType,
  }
  deps.commit(entry)
  live.finish(entry.size, entry.contentType)
  if (!entry.pinned) await deps.evictTo(deps.maxBytes(), k)
  return { path, entry }
}
