import { silentLogger } from '../log'
import { lateFetch, realTimers } from '../ports'
import type { CacheEntry, CacheKey } from './cache-index'
import { fileNameFor, keyString, loadIndex, saveIndex } from './cache-index'
import { errorCode, realCacheFs } from './fs-port'
import type { CacheUsage, CachedFile, FillOptions, MediaCacheOptions, MediaOrigin } from './cache-types'
import { MediaCacheError } from './cache-types'
import { md5Of } from './file-io'
import { fetchInto } from './fetch-into'
import type { FetchIntoDeps } from './fetch-into'
import { LiveFill } from './live-fill'
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

/** How many times a file that fails its size or md5 check is fetched before giving up. */
const FETCH_ATTEMPTS = 2

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
  let saveTimer: unknown
  let saving: Promise<void> = Promise.resolve()
  /** After `close()`: nothing is written any more (the folder may be about to go). */
  let closed = false
  const scheduleSave = () => {
    if (saveTimer !== undefined || closed) return
    saveTimer = timers.setTimeout(() => {
      saveTimer = undefined
      void writeIndex()
    }, saveDelay)
  }
  const writeIndex = () => {
    saving = saving.then(() =>
      saveIndex(fs, dir, entries.values()).catch((error: unknown) => {
        // Disk full or the folder unwritable: the files are still checked on every read, so a stale
        // index costs nothing but a rebuild.
        log.warn('could not save the media cache index', { error: String(error) })
      }),
    )
    return saving
  }

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
    closed: () => closed,
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

  /** One fetch of one song, however many ask for it; `live` is what readers see while it arrives. */
  interface Job {
    key: CacheKey
    live: LiveFill
    done: Promise<CachedFile>
    /** Aborts the fetch (`abandon`: a played song nobody listens to). */
    stop: AbortController
    /** Bytes it will add to the played songs: its whole size once known, 0 for a download or when over. */
    fetching: () => number
  }
  const jobs = new Map<string, Job>()
  const isDownload = (k: string) => pinWhenDone.has(k) || Boolean(entries.get(k)?.pinned)

  /** Bytes of the played songs being fetched but `except`'s. */
  const fetchingBytes = (except?: string) => {
    let sum = 0
    for (const [k, job] of jobs) if (k !== except) sum += job.fetching()
    return sum
  }

  const startJob = (
    key: CacheKey,
    origin: () => Promise<MediaOrigin>,
    fillOptions: FillOptions,
    abandoned?: Job,
  ): Job => {
    const k = keyString(key)
    const path = `${dir}/${fileNameFor(key)}`
    const live = new LiveFill(fs, partialPath(path), path)
    const stop = new AbortController()
    const signal = fillOptions.signal ? AbortSignal.any([fillOptions.signal, stop.signal]) : stop.signal
    const options: FillOptions = { ...fillOptions, signal }
    let size: number | undefined
    const done = (async () => {
      await ready
      // An abandoned fetch of the same song deletes its partial file as it stops: not this one's.
      await abandoned?.done.catch(() => undefined)
      const cached = await lookup(key, { touch: !fillOptions.pin })
      if (cached) {
        live.finish(cached.entry.size, cached.entry.contentType)
        return cached
      }
      let lastError: unknown
      for (let attempt = 1; attempt <= FETCH_ATTEMPTS; attempt++) {
        try {
          const from = await origin()
          if (stop.signal.aborted) throw new MediaCacheError('cancelled', 'Nobody listens to it any more')
          size = from.size
          return await fetchOnce(key, from, options, live)
        } catch (error) {
          lastError = error
          if (!(error instanceof MediaCacheError) || error.reason !== 'corrupt') throw error
          log.warn('a fetched file failed its check; fetching again', { songId: key.songId, attempt })
          live.restart()
        }
      }
      throw lastError
    })()
      .catch((error: unknown) => {
        live.fail()
        throw error
      })
      .finally(() => {
        if (jobs.get(k) !== job) return // abandoned, and the song asked for again meanwhile
        jobs.delete(k)
        pinWhenDone.delete(k)
      })
    // Whoever started it may not wait for it (a played song's copy): no unhandled rejection.
    done.catch(() => undefined)
    const fetching = () =>
      live.state === 'running' && !isDownload(k) ? (live.total ?? size ?? live.received) : 0
    const job: Job = { key, live, done, stop, fetching }
    jobs.set(k, job)
    return job
  }

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
    bestFor(key: CacheKey, { anyBitrate = false } = {}): CacheEntry | undefined {
      const exact = entries.get(keyString(key))
      if (exact) return exact
      let best: CacheEntry | undefined
      for (const e of entries.values()) {
        if (e.songId !== key.songId || e.sourceId !== key.sourceId) continue
        if (!e.pinned && !anyBitrate) continue
        if (!best || (e.pinned && !best.pinned) || (e.pinned === best.pinned && e.bitrate > best.bitrate))
          best = e
      }
      return best
    },
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
      await writeIndex()
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
      if (saveTimer !== undefined) timers.clearTimeout(saveTimer)
      saveTimer = undefined
      if (!closed) await writeIndex()
      closed = true
      await saving
    },
    /** Writes the index now (before quitting, and in tests). */
    async flush(): Promise<void> {
      await ready
      if (saveTimer !== undefined) {
        timers.clearTimeout(saveTimer)
        saveTimer = undefined
      }
      await writeIndex()
    },
  }
}

export type MediaCache = ReturnType<typeof createMediaCache>
