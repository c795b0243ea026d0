import type { Timers } from '../ports'
import type { Logger } from '../log'
import type { CacheEntry } from './cache-index'
import type { CacheFs } from './fs-port'
import type { FreeSpaceProbe, MediaLimits } from './limits'

/**
 * Default cap of the cache: 2 GB. Downloads count against it but are never evicted (played songs make
 * room for them); they are bounded by the disk's free space instead (`MediaLimits.reserveBytes`).
 */
export const DEFAULT_CACHE_MAX_BYTES = 2 * 1024 ** 3

export type MediaCacheErrorReason =
  | 'disk-full'
  | 'corrupt'
  | 'too-large'
  | 'http'
  | 'network'
  | 'cancelled'
  /** The data source pointed at an address it may not (core/net): asking again changes nothing. */
  | 'refused'

/** Why a file could not be cached. `disk-full` means nothing was left behind and the cache shrank. */
export class MediaCacheError extends Error {
  constructor(
    readonly reason: MediaCacheErrorReason,
    message: string,
    readonly status?: number,
  ) {
    super(message)
    this.name = 'MediaCacheError'
  }
}

/** Where the bytes come from: usually `/song/detail`'s signed `meta.url`, `meta.size` and `meta.md5`. */
export interface MediaOrigin {
  url: string
  size?: number
  md5?: string
}

export interface MediaCacheOptions {
  /** The cache folder (the app: `<userData>/media-cache`). */
  dir: string
  /** Cap of the cache in bytes (played songs and downloads), read at each check (a setting). */
  maxBytes: () => number
  /** The byte cap, free-space reserve and deadlines of every file fetched (default `DEFAULT_MEDIA_LIMITS`). */
  limits?: Partial<MediaLimits>
  /** Free bytes on the disk holding a folder (default: `fs.statfs`). */
  freeSpace?: FreeSpaceProbe
  fs?: CacheFs
  fetch?: typeof fetch
  /** The fetch for a source's files (the core's address guard, under that source's policy); else `fetch`. */
  fetchFor?: (sourceId: string) => typeof fetch
  now?: () => number
  timers?: Timers
  log?: Logger
  /** The index is written this long after the last change (default 1 s); `flush()` writes it now. */
  indexSaveDelayMs?: number
  /** Check a file's md5 the first time it is served after a start (default true). */
  verifyOnFirstRead?: boolean
  /** A file left the cache (evicted, cleared, removed, damaged): what is kept beside it can go too. */
  onRemove?: (entry: CacheEntry) => void
}

export interface CachedFile {
  path: string
  entry: CacheEntry
}

export interface FillOptions {
  /** Keep it as a download: never evicted. */
  pin?: boolean
  /** Bytes received so far, and the expected total when known. */
  onProgress?: (received: number, total: number | undefined) => void
  signal?: AbortSignal
}

export interface CacheUsage {
  /** Played songs (counted against the cap). */
  cachedBytes: number
  cachedCount: number
  /** Downloads (counted against the cap, never evicted). */
  downloadedBytes: number
  downloadedCount: number
  maxBytes: number
}
