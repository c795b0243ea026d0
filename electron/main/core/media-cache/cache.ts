import { silentLogger } from '../log'
import { lateFetch, realTimers } from '../ports'
import type { CacheEntry, CacheKey } from './cache-index'
import { fileNameFor, keyString, loadIndex } from './cache-index'
import { bestFile } from './best-file'
import { errorCode, realCacheFs } from './fs-port'
import type { CacheUsage, CachedFile, FillOptions, MediaCacheOptions, MediaOrigin } from './cache-types'
import { md5Of } from './file-io'
import { fetchInto } from './fetch-into'
import type { FetchIntoDeps } from './fetch-into'
import { createFetchJobs } from './fetch-jobs'
import { createIndexSaver } from './index-saver'
import type { LiveFill } from './live-fill'
import { DEFAULT_MEDIA_LIMITS, realFreeSpace } from './limits'
import { discardPartial, partialPath, prunePartials } from './partial'

export { DEFAULT_CACHE_MAX_BYTES, MediaCacheError } from './cache-types'
export type {
  CacheUsage,
  CachedFile,
  FillOptions,
  MediaCacheErrorReason,
  MediaCacheOptions,
  MediaOrigin,
} from './cache-types'

/**
 * The on-disk cache of played songs and downloads, owned by main. Files are keyed by data source, song and
 * bitrate, written to a `.partial` file and renamed when complete and checked, so a half file never has a
 * cache name. Concurrent requests for one song share one fetch, which the media scheme reads as it
 * arrives (`live`). See docs/playback.md "Offline".
 */
export function createMediaCache(options: MediaCacheOptions) {
  const fs = options.fs ?? realCacheFs
  const dir = options.dir
  const now = options.now ?? Date.now
  const timers = options.timers ?? realTimers
  const log = options.log ?? silentLogger('media-cache')
  const doFetch = lateFetch(options.fetch)
  const saveDelay = options.indexSaveDelayMs ?? 1000
  const verifyOnFirstRead = options.verifyOnFirstRead ?? true
  const limits = { ...DEFAULT_MEDIA_LIMITS, ...options.limits }
  const freeSpace = options.freeSpace ?? realFreeSpace

  const entries = new Map<string, CacheEntry>()
  /** Entries whose md5 was checked since the start. */
  const verified = new Set<string>()
  const pinWhenDone = new Set<string>()
  let cachedBytes = 0
  let downloadedBytes = 0

  const add = (entry: CacheEntry) => {
    const k = keyString(entry)
    const old = entries.get(k)
    if (old) drop(k, old)
    entries.set(k, entry)
    if (entry.pinned) downloadedBytes += entry.size
    else cachedBytes += entry.size
  }
  const drop = (k: string, entry: CacheEntry) => {
    if (entries.get(k) !== entry) return
    entries.delete(k)
    verified.delete(k)
    if (entry.pinned) downloadedBytes -= entry.size
    else cachedBytes -= entry.size
  }
  const setPinned = (entry: CacheEntry, pinned: boolean) => {
    if (entry.pinned === pinned) return
    if (pinned) {
      cachedBytes -= entry.size
      downloadedBytes += entry.size
    } else {
      downloadedBytes -= entry.size
      cachedBytes += entry.size
    }
    entry.pinned = pinned
    scheduleSave()
  }

  const ready = loadIndex(fs, dir).then(
    ({ entries: loaded, rebuilt }) => {
      for (const e of loaded) add(e)
      if (rebuilt) {
        log.warn('the cache index was missing or damaged; rebuilt from the folder', { files: loaded.length })
        scheduleSave()
      }
    },
    (error: unknown) => log.error('could not read the media cache', { error: String(error) }),
  )

  // ---- the index on disk ----
  const saver = createIndexSaver({
    fs,
    dir,
    entries: () => entries.values(),
    timers,
    delayMs: saveDelay,
    log,
  })
  const scheduleSave = saver.schedule

  const pathOf = (entry: CacheEntry) => `${dir}/${entry.file}`

  const removeEntry = async (k: string, entry: CacheEntry) => {
    drop(k, entry)
    scheduleSave()
    options.onRemove?.(entry)
    await fs.rm(pathOf(entry), { force: true }).catch(() => undefined)
  }

  /**
   * Evicts the least recently played songs (never a download, never `keep`) until they and the downloads
   * fit in `limit`: their files and, unless `filesOnly`, the bytes of the played songs being fetched but
   * `keep` (counted at their whole size), so a burst of first plays does not pass the cap by many files.
   * Downloads count but never go: once they fill the cap, only the song playing is kept.
   */
  const evictTo = async (limit: number, keep?: string, { filesOnly = false } = {}) => {
    const over = () => downloadedBytes + cachedBytes + (filesOnly ? 0 : fetchingBytes(keep)) > limit
    if (!over()) return
    const candidates = [...entries.entries()]
      .filter(([k, e]) => !e.pinned && k !== keep)
      .sort((a, b) => a[1].lastPlayed - b[1].lastPlayed)
    for (const [k, e] of candidates) {
      if (!over()) break
      log.debug('evicting', { songId: e.songId, size: e.size })
      await removeEntry(k, e)
    }
  }

  /** The folder itself is gone (deleted while running): forget everything it held. */
  const folderGone = async () => {
    try {
      await fs.readdir(dir)
      return false
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') return false
      log.warn('the media cache folder was deleted; starting empty')
      for (const [k, e] of [...entries]) drop(k, e)
      scheduleSave()
      return true
    }
  }

  /**
   * The complete, checked file of a song, or undefined. A file that is missing, changed since it was
   * written or fails its md5 is dropped (and fetched again by the next `fill`), never served.
   */
  const lookup = async (key: CacheKey, { touch = true } = {}): Promise<CachedFile | undefined> => {
    await ready
    const k = keyString(key)
    const entry = entries.get(k)
    if (!entry) return undefined
    const path = pathOf(entry)
    let st: { size: number; mtimeMs: number }
    try {
      st = await fs.stat(path)
    } catch {
      if (!(await folderGone())) await removeEntry(k, entry)
      return undefined
    }
    if (st.size !== entry.size || st.mtimeMs !== entry.mtimeMs) {
      log.warn('a cached file changed on disk; it will be fetched again', { songId: entry.songId })
      await removeEntry(k, entry)
      return undefined
    }
    if (entry.md5 && verifyOnFirstRead && !verified.has(k)) {
      const actual = await md5Of(fs, path).catch(() => undefined)
      if (actual !== entry.md5) {
        log.warn('a cached file failed its md5 check; it will be fetched again', { songId: entry.songId })
        await removeEntry(k, entry)
        return undefined
      }
      verified.add(k)
    }
    if (touch) {
      entry.lastPlayed = now()
      scheduleSave()
    }
    return { path, entry }
  }

  const fetchOnce = (key: CacheKey, origin: MediaOrigin, fill: FillOptions, live: LiveFill) =>
    fetchInto(
      options.fetchFor ? { ...fetchDeps, fetch: options.fetchFor(key.sourceId) } : fetchDeps,
      key,
      origin,
      fill,
      live,
    )
  const fetchDeps: FetchIntoDeps = {
    fs,
    dir,
    fetch: doFetch,
    log,
    now,
    timers,
    maxBytes: () => options.maxBytes(),
    limits,
    freeSpace: () => freeSpace(dir),
    closed: saver.closed,
    pinned: (k) => pinWhenDone.has(k) || Boolean(entries.get(k)?.pinned),
    evictTo,
    async diskFull() {
      // Nothing half-written stays; the played-songs cache gives back half of what it holds.
      await evictTo(downloadedBytes + Math.floor(cachedBytes / 2), undefined, { filesOnly: true })
      log.warn('the disk is full; the cache shrank', { cachedBytes })
    },
    commit(entry) {
      add(entry)
      verified.add(keyString(entry))
      scheduleSave()
    },
  }

  const isDownload = (k: string) => pinWhenDone.has(k) || Boolean(entries.get(k)?.pinned)
  const {
    jobs,
    start: startJob,
    fetchingBytes,
  } = createFetchJobs({
    fs,
    dir,
    ready,
    lookup,
    fetchOnce,
    isDownload,
    ended: (k) => pinWhenDone.delete(k),
    log,
  })

  /**
   * The song's file, from the cache or fetched into it. `origin` is asked for each attempt (a signed URL
   * may have expired); a file that fails its size or md5 check is fetched once more, then the call fails
   * with `corrupt`. Callers asking for the same song at once share one fetch, which `live(key)` shows as
   * it arrives.
   */
  const fill = async (
    key: CacheKey,
    origin: () => Promise<MediaOrigin>,
    fillOptions: FillOptions = {},
  ): Promise<CachedFile> => {
    const k = keyString(key)
    if (fillOptions.pin) pinWhenDone.add(k)
    const running = jobs.get(k)
    const job =
      running && !running.stop.signal.aborted ? running : startJob(key, origin, fillOptions, running)
    const done = await job.done
    if (fillOptions.pin) {
      setPinned(done.entry, true)
      // The download counts against the cap: played songs make room for it.
      await evictTo(options.maxBytes())
    }
    return done
  }

  const usage = (): CacheUsage => {
    let cachedCount = 0
    let downloadedCount = 0
    for (const e of entries.values()) {
      if (e.pinned) downloadedCount++
      else cachedCount++
    }
    return { cachedBytes, cachedCount, downloadedBytes, downloadedCount, maxBytes: options.maxBytes() }
  }

  return {
    /** Resolves once the index is read (every method waits for it by itself). */
    ready,
    dir,
    lookup,
    fill,
    /** The fetch under way for a song (its bytes so far, for the media scheme), if any. */
    live: (key: CacheKey): LiveFill | undefined => jobs.get(keyString(key))?.live,
    /** Whether the song is, or is to be, a download (its fetch is never abandoned). */
    isDownload: (key: CacheKey) => isDownload(keyString(key)),
    /**
     * Stops the fetch of a played song nobody listens to any more and deletes its partial file (one a
     * download left stays); false when there is none or it is a download's. Whoever asks for the song
     * again starts a new fetch.
     */
    abandon(key: CacheKey): boolean {
      const k = keyString(key)
      const job = jobs.get(k)
      if (!job || job.live.state !== 'running' || isDownload(k)) return false
      job.stop.abort()
      return true
    },
    /** Deletes the partial file of a song nobody fetches any more (a download removed). */
    async discardPartial(key: CacheKey): Promise<void> {
      await ready
      if (jobs.has(keyString(key))) return
      await discardPartial(fs, partialPath(`${dir}/${fileNameFor(key)}`))
    },
    /**
     * Deletes the partial files of songs nobody fetches any more (a download removed, or cut short by a
     * crash before it was pinned); `keep` names the ones the download queue still wants.
     */
    async prunePartials(keep: Iterable<CacheKey>): Promise<void> {
      await ready
      await prunePartials(fs, dir, [...keep, ...[...jobs.values()].map((job) => job.key)])
    },
    /** Whether a complete file is indexed (no disk check: for badges and offline decisions). */
    has: (key: CacheKey) => entries.has(keyString(key)),
    entry: (key: CacheKey) => entries.get(keyString(key)),
    /**
     * The indexed file to play for a song: the asked bitrate, else a download at any bitrate (the
     * highest), else, when `anyBitrate` (offline), any cached one. No disk check: `lookup` it.
     */
    bestFor: (key: CacheKey, options: { anyBitrate?: boolean } = {}): CacheEntry | undefined =>
      bestFile(entries, key, options),
    entries: () => entries.values(),
    usage,
    /** Marks a cached file as a download (never evicted) or back as a played song. */
    async pin(key: CacheKey, pinned = true): Promise<boolean> {
      await ready
      const entry = entries.get(keyString(key))
      if (!entry) return false
      setPinned(entry, pinned)
      if (!pinned) await evictTo(options.maxBytes())
      return true
    },
    async remove(key: CacheKey): Promise<void> {
      await ready
      const k = keyString(key)
      const entry = entries.get(k)
      if (entry) await removeEntry(k, entry)
    },
    /** Empties the played-songs cache; downloads stay. */
    async clear(): Promise<CacheUsage> {
      await ready
      for (const [k, e] of [...entries]) if (!e.pinned) await removeEntry(k, e)
      await saver.write()
      return usage()
    },
    /** Applies a lowered cap at once. */
    async enforceCap(): Promise<void> {
      await ready
      await evictTo(options.maxBytes())
    },
    /** Writes the index one last time and stops writing it (the app quits, the core is disposed). */
    async close(): Promise<void> {
      await ready
      await saver.close()
    },
    /** Writes the index now (before quitting, and in tests). */
    async flush(): Promise<void> {
      await ready
      await saver.flush()
    },
  }
}

export type MediaCache = ReturnType<typeof createMediaCache>
