import type { Logger } from '../log'
import type { CacheKey } from './cache-index'
import { fileNameFor, keyString } from './cache-index'
import type { CachedFile, FillOptions, MediaOrigin } from './cache-types'
import { MediaCacheError } from './cache-types'
import type { CacheFs } from './fs-port'
import { LiveFill } from './live-fill'
import { partialPath } from './partial'

/** How many times a file that fails its size or md5 check is fetched before giving up. */
const FETCH_ATTEMPTS = 2

/** One fetch of one song, however many ask for it; `live` is what readers see while it arrives. */
export interface FetchJob {
  key: CacheKey
  live: LiveFill
  done: Promise<CachedFile>
  /** Aborts the fetch (`abandon`: a played song nobody listens to). */
  stop: AbortController
  /** Bytes it will add to the played songs: its whole size once known, 0 for a download or when over. */
  fetching: () => number
}

export interface FetchJobsDeps {
  fs: CacheFs
  dir: string
  /** The cache index is read. */
  ready: Promise<void>
  /** The song's complete, checked file already in the cache. */
  lookup: (key: CacheKey, options: { touch: boolean }) => Promise<CachedFile | undefined>
  /** One fetch of the song's file from `origin` into the cache. */
  fetchOnce: (key: CacheKey, origin: MediaOrigin, fill: FillOptions, live: LiveFill) => Promise<CachedFile>
  /** Whether the song is, or is to be, a download. */
  isDownload: (k: string) => boolean
  /** A job ended (done or failed) and was not replaced meanwhile. */
  ended: (k: string) => void
  log: Logger
}

/** The media cache's fetches under way, one per song. */
export function createFetchJobs(deps: FetchJobsDeps) {
  const jobs = new Map<string, FetchJob>()

  /** Bytes of the played songs being fetched but `except`'s. */
  const fetchingBytes = (except?: string) => {
    let sum = 0
    for (const [k, job] of jobs) if (k !== except) sum += job.fetching()
    return sum
  }

  const start = (
    key: CacheKey,
    origin: () => Promise<MediaOrigin>,
    fillOptions: FillOptions,
    abandoned?: FetchJob,
  ): FetchJob => {
    const k = keyString(key)
    const path = `${deps.dir}/${fileNameFor(key)}`
    const live = new LiveFill(deps.fs, partialPath(path), path)
    const stop = new AbortController()
    const signal = fillOptions.signal ? AbortSignal.any([fillOptions.signal, stop.signal]) : stop.signal
    const options: FillOptions = { ...fillOptions, signal }
    let size: number | undefined
    const done = (async () => {
      await deps.ready
      // An abandoned fetch of the same song deletes its partial file as it stops: not this one's.
      await abandoned?.done.catch(() => undefined)
      const cached = await deps.lookup(key, { touch: !fillOptions.pin })
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
          return await deps.fetchOnce(key, from, options, live)
        } catch (error) {
          lastError = error
          if (!(error instanceof MediaCacheError) || error.reason !== 'corrupt') throw error
          deps.log.warn('a fetched file failed its check; fetching again', { songId: key.songId, attempt })
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
        deps.ended(k)
      })
    // Whoever started it may not wait for it (a played song's copy): no unhandled rejection.
    done.catch(() => undefined)
    const fetching = () =>
      live.state === 'running' && !deps.isDownload(k) ? (live.total ?? size ?? live.received) : 0
    const job: FetchJob = { key, live, done, stop, fetching }
    jobs.set(k, job)
    return job
  }

  return { jobs, start, fetchingBytes }
}
