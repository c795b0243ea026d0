import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Id, Song } from '@shared/api/models'
import type { DownloadsSummary, MediaCacheInfo, OfflineAvailability } from '@shared/ipc/contract'
import { DEFAULT_BITRATE, preferredBitrate } from '@shared/player/quality'
import type { SettingsService } from '../settings/service'
import type { ActiveCall } from '../sources/active'
import type { EventHub } from '../events'
import type { Handlers } from '../ipc/router'
import type { LoggerFactory } from '../log'
import type { KeyValueStore, Timers } from '../ports'
import { createDownloads } from '../downloads/queue'
import { createMediaCache, realCacheFs } from '../media-cache'
import type { CacheFs, CacheKey, CachedFile, FreeSpaceProbe, MediaLimits } from '../media-cache'
import { mediaUrl as schemeUrl } from '@shared/player/media-url'
import type { MediaSource } from '../media'
import { MediaCacheError } from '../media-cache'
import { createCachedSource } from './cached-source'
import { createExtrasStore } from './extras'
import { createOfflineMonitor, isUnreachable } from './monitor'
import { createPlayedCopies } from './played-copies'
import { lateFetch } from '../ports'
import type { SourceFetch } from '../net'

export { isUnreachable } from './monitor'
export type { KeptExtras } from './extras'

type OfflineChannels = Extract<
  keyof Handlers,
  `downloads:${string}` | `media:${string}` | `offline:${string}`
>

export interface OfflineDeps {
  /** The media cache folder (the app: `<userData>/media-cache`; default: a folder in the OS temp dir). */
  mediaDir?: string
  fs?: CacheFs
  /** The byte cap, free-space reserve and deadlines of every song file fetched (tests shorten them). */
  limits?: Partial<MediaLimits>
  /** Free bytes on the disk holding a folder (default: `fs.statfs`). */
  freeSpace?: FreeSpaceProbe
  store: KeyValueStore
  settings: SettingsService
  events: EventHub
  /** Runs a call on the active data source (with the login settled). */
  call: ActiveCall
  /** Asks the active source something cheap, to learn when it is back. */
  probe: () => Promise<void>
  activeSourceId: () => string
  userId: () => Id | undefined
  fetch?: typeof fetch
  /** The fetch for what a source names (its songs' audio and covers), under that source's policy. */
  fetchFor?: SourceFetch
  timers: Timers
  log: LoggerFactory
  /** The media scheme's address of a song (default: issue 22's `cadence-media://song/…`). */
  mediaUrl?: (key: CacheKey) => string
  now?: () => number
}

const MIB = 1024 * 1024
/** Unused covers are swept this long after the start. */
const SWEEP_DELAY_MS = 30_000
/** The reason the queue shows for a song skipped offline. */
export const NOT_OFFLINE =
  'Not available offline: the data source cannot be reached and this song is not on this computer'

/**
 * Issue 23 in one piece: the media cache, the download queue and offline mode, with their IPC handlers.
 * The core builds it once; the media scheme's handler (issue 22) asks `playable()` for a file to serve.
 */
export function createOffline(deps: OfflineDeps) {
  const fs = deps.fs ?? realCacheFs
  const toMediaUrl =
    deps.mediaUrl ??
    ((key: CacheKey) => schemeUrl({ sourceId: key.sourceId, songId: key.songId, br: key.bitrate }))
  const now = deps.now ?? Date.now
  const dir = deps.mediaDir ?? join(tmpdir(), `cadence-media-cache-${process.pid}`)
  const cache = createMediaCache({
    dir,
    fs,
    fetch: deps.fetch,
    fetchFor: deps.fetchFor,
    maxBytes: () => deps.settings.get().mediaCacheMaxMiB * MIB,
    limits: deps.limits,
    freeSpace: deps.freeSpace,
    timers: deps.timers,
    log: deps.log('media-cache'),
    // The lyrics and cover go with the song's last file.
    onRemove: (entry) => {
      if (!cache.bestFor(entry, { anyBitrate: true })) void extras.forget(entry).catch(() => undefined)
    },
  })
  const extras = createExtrasStore({ fs, dir, fetch: lateFetch(deps.fetch), fetchFor: deps.fetchFor })

  let availabilityTimer: unknown
  const availabilityChanged = () => {
    if (availabilityTimer !== undefined) return
    availabilityTimer = deps.timers.setTimeout(() => {
      availabilityTimer = undefined
      deps.events.emit('media:available-changed', available())
    }, 300)
  }

  const monitor = createOfflineMonitor({
    probe: deps.probe,
    onChange: (state) => deps.events.emit('offline:changed', state),
    timers: deps.timers,
    log: deps.log('offline'),
  })

  const detail = (key: CacheKey) => deps.call((api) => api.songDetail(key.songId, deps.userId(), key.bitrate))

  const downloads = createDownloads({
    store: deps.store,
    cache,
    resolve: async (key) => {
      if (key.sourceId !== deps.activeSourceId()) {
        // Another source became active while it was queued: back in the queue, where it waits.
        throw new MediaCacheError('cancelled', 'Its data source is not the active one')
      }
      let song: Song
      try {
        song = await detail(key)
      } catch (error) {
        monitor.failed(error)
        throw error
      }
      monitor.answered()
      const meta = song.meta
      if (song.privilege?.playable === false || !meta?.url) {
        return { playable: false, reason: song.privilege?.reason }
      }
      return {
        playable: true,
        origin: { url: meta.url, size: meta.size, md5: meta.md5 },
        keep: () => extras.keep(key, song),
      }
    },
    bitrateFor: () => preferredBitrate(deps.settings.get().quality),
    activeSourceId: deps.activeSourceId,
    isOffline: monitor.isOffline,
    onChange: (summary) => deps.events.emit('downloads:changed', summary),
    onAvailabilityChange: availabilityChanged,
    timers: deps.timers,
    log: deps.log('downloads'),
  })
  monitor.onOnline(() => downloads.online())

  // Covers no song or download refers to any more go, off the start path.
  const sweepTimer = deps.timers.setTimeout(() => {
    void extras
      .sweep(downloads.covers())
      .catch((error: unknown) =>
        deps.log('media-cache').warn('could not sweep covers', { error: String(error) }),
      )
  }, SWEEP_DELAY_MS)

  deps.settings.onChange((next, previous) => {
    if (next.mediaCacheMaxMiB < previous.mediaCacheMaxMiB) void cache.enforceCap()
  })

  const available = (): OfflineAvailability => {
    const sourceId = deps.activeSourceId()
    const downloaded = new Set(downloads.doneIds(sourceId))
    const cached = new Set<string>()
    for (const e of cache.entries()) {
      if (e.sourceId === sourceId && !downloaded.has(e.songId)) cached.add(e.songId)
    }
    return { sourceId, downloaded: [...downloaded], cached: [...cached] }
  }

  const cacheInfo = (): MediaCacheInfo => ({ ...cache.usage(), dir })

  /**
   * The file to serve for a song, or undefined: the asked bitrate, else a download at any bitrate, else
   * (offline) any cached bitrate. Checked on disk; a damaged file is dropped and not served.
   */
  const playable = async (key: CacheKey): Promise<CachedFile | undefined> => {
    await cache.ready
    const entry = cache.bestFor(key, { anyBitrate: monitor.isOffline() })
    if (!entry) return undefined
    return cache.lookup(entry)
  }

  /**
   * `player:resolve` while the data source cannot be reached: a song this computer has plays from it
   * (`mediaUrl`, given by the media scheme), with its kept lyrics; any other is unplayable with the reason,
   * so the queue skips it and says why.
   */
  async function resolveOffline(key: CacheKey, mediaUrl: (key: CacheKey) => string): Promise<Song>
  async function resolveOffline(
    key: CacheKey,
    mediaUrl: (key: CacheKey) => string,
    options: { needKept: true },
  ): Promise<Song | undefined>
  async function resolveOffline(
    key: CacheKey,
    mediaUrl: (key: CacheKey) => string,
    options: { needKept?: boolean } = {},
  ): Promise<Song | undefined> {
    const file = await playable(key)
    const kept = await extras.read(key)
    if (options.needKept && (!file || !kept)) return undefined
    const base: Song = kept?.song ?? {
      id: key.songId,
      name: '',
      tns: [],
      artists: [],
      album: undefined,
      duration: undefined,
      privilege: undefined,
      meta: undefined,
    }
    if (!file) {
      return {
        ...base,
        meta: undefined,
        privilege: {
          playable: false,
          reason: NOT_OFFLINE,
          bitrates: [],
          maxBitrate: undefined,
        },
      }
    }
    return {
      ...base,
      privilege: {
        playable: true,
        reason: undefined,
        bitrates: [file.entry.bitrate],
        maxBitrate: file.entry.bitrate,
      },
      meta: {
        isFavorite: base.meta?.isFavorite,
        url: mediaUrl(file.entry),
        size: file.entry.size,
        md5: file.entry.md5,
        bitrate: file.entry.bitrate,
        lyric: kept?.lyric,
      },
    }
  }

  /**
   * `player:resolve` with the cache and offline mode. A song on disk with its details kept answers from
   * the disk at once (no `/song/detail`: starting a cached song costs no network at all); while the source
   * is known to be unreachable the network is not tried (each try would wait for a timeout); a resolve
   * that finds it unreachable answers from the disk, or marks the song unplayable with the reason.
   */
  const wrapResolve =
    (resolve: Handlers['player:resolve']): Handlers['player:resolve'] =>
    async (args, context) => {
      const key = {
        sourceId: deps.activeSourceId(),
        songId: String(args.id),
        bitrate: args.br ?? DEFAULT_BITRATE,
      }
      if (monitor.isOffline()) return resolveOffline(key, toMediaUrl)
      if (cache.bestFor(key)) {
        const fromDisk = await resolveOffline(key, toMediaUrl, { needKept: true })
        if (fromDisk) return fromDisk
      }
      try {
        return await resolve(args, context)
      } catch (error) {
        // Offline only when the source cannot be reached: one slow or failed answer is this song's failure.
        if (!(await monitor.settle(error))) throw error
        return resolveOffline(key, toMediaUrl)
      }
    }

  const copies = createPlayedCopies({
    cache,
    detail,
    activeSourceId: deps.activeSourceId,
    keep: (key, song) => extras.keep(key, song),
    onCached: availabilityChanged,
    now,
    timers: deps.timers,
    log: deps.log('media-cache'),
  })

  /** The media scheme's source with the cache in front of `inner` (the network source). */
  const mediaSource = (inner: MediaSource): MediaSource =>
    createCachedSource({
      inner,
      playable,
      fill: copies.fill,
      isOffline: monitor.isOffline,
      log: deps.log('media-cache'),
      timers: deps.timers,
    })

  /** Removes downloads; a header cover none of the rest refers to goes at the next start's sweep. */
  const removeDownloads = async (remove: () => Promise<DownloadsSummary>) => {
    const before = downloads.covers()
    const summary = await remove()
    const after = downloads.covers()
    if ([...before].some((cover) => !after.has(cover))) await extras.markSweep()
    return summary
  }

  const handlers: Pick<Handlers, OfflineChannels> = {
    'downloads:add': ({ songs, cover }) => {
      // The list's own header cover, so its page shows it offline (fetched while the page is open).
      if (cover) {
        void extras
          .keepCover(cover, deps.activeSourceId())
          .catch((error: unknown) =>
            deps.log('downloads').warn('could not keep a header cover', { error: String(error) }),
          )
      }
      return downloads.add(songs, cover)
    },
    'downloads:list': (args) => downloads.list(args),
    'downloads:summary': () => downloads.summary(),
    'downloads:remove': ({ ids }) => removeDownloads(() => downloads.remove(ids)),
    'downloads:pause': () => downloads.pause(),
    'downloads:resume': () => downloads.resume(),
    'downloads:retry': () => downloads.retry(),
    'media:cache-info': async () => {
      await cache.ready
      return cacheInfo()
    },
    'media:clear-cache': async () => {
      await cache.clear()
      availabilityChanged()
      return cacheInfo()
    },
    'media:available': async () => {
      await cache.ready
      return available()
    },
    'offline:state': () => monitor.state(),
    'offline:check': async () => (await monitor.checkNow(), monitor.state()),
  }

  return {
    cache,
    downloads,
    extras,
    monitor,
    handlers,
    playable,
    resolveOffline,
    wrapResolve,
    mediaSource,
    /** `player:resolve` answered a song with this signed URL (its copy will not ask again). */
    rememberResolved: copies.remember,
    /** The player's song changed (its id; undefined: none): the copy of a song it left may stop. */
    playing: copies.playing,
    /** The cover kept for a cover address (the media scheme's `cover` route). */
    cover: (src: string) => extras.cover(src),
    /** The built-in data source's process is up (true) or down: offline mode follows it. */
    builtinState: (up: boolean) => monitor.setReachable(up, 'The built-in library is not running'),
    /** A data source was removed: its downloads go (the cap may then evict their files). */
    forgetSource: (sourceId: string) => removeDownloads(() => downloads.forgetSource(sourceId)),
    /** Another data source became active. */
    sourceChanged() {
      monitor.reset()
      downloads.online()
      availabilityChanged()
    },
    /** Call results, fed by the core's `call`. */
    failed: (error: unknown) => monitor.failed(error),
    answered: () => monitor.answered(),
    isUnreachable,
    async dispose() {
      monitor.dispose()
      downloads.dispose()
      copies.dispose()
      if (availabilityTimer !== undefined) deps.timers.clearTimeout(availabilityTimer)
      deps.timers.clearTimeout(sweepTimer)
      await cache.close()
      // A folder of our own under the OS temp dir (tests, the e2e harness) goes with the core.
      if (deps.mediaDir === undefined)
        await fs.rm(dir, { force: true, recursive: true }).catch(() => undefined)
    },
  }
}

export type Offline = ReturnType<typeof createOffline>
