import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Id, Song } from '@shared/api/models'
import type { OfflineAvailability } from '@shared/ipc/contract'
import { preferredBitrate } from '@shared/player/quality'
import type { SettingsService } from '../settings/service'
import type { ActiveCall } from '../sources/active'
import type { EventHub } from '../events'
import type { LoggerFactory } from '../log'
import type { KeyValueStore, Timers } from '../ports'
import { createDownloads } from '../downloads/queue'
import { createMediaCache, realCacheFs } from '../media-cache'
import type { CacheFs, CacheKey, FreeSpaceProbe, MediaLimits } from '../media-cache'
import { mediaUrl as schemeUrl } from '@shared/player/media-url'
import type { MediaSource } from '../media'
import { MediaCacheError } from '../media-cache'
import { createCachedSource } from '../media/cached-source'
import { createExtrasStore } from './extras'
import { availableOffline, createOfflineHandlers, removeDownloads } from './handlers'
import { createOfflineMonitor, isUnreachable } from './monitor'
import { createDiskResolver } from './resolve'
import { createPlayedCopies } from '../media/played-copies'
import { playableUrl } from '../media/song-url'
import { debouncedWrite } from '../debounced'
import { lateFetch } from '../ports'
import type { SourceFetch } from '../net'

export { isUnreachable } from './monitor'
export type { KeptExtras } from './extras'
export { NOT_OFFLINE } from './resolve'

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
  /** A data source's name (undefined: not in the list), for why a queued song of it cannot play. */
  sourceName?: (sourceId: string) => string | undefined
  userId: () => Id | undefined
  fetch?: typeof fetch
  /** The fetch for what a source names (its songs' audio and covers), under that source's policy. */
  fetchFor?: SourceFetch
  timers: Timers
  log: LoggerFactory
  /** The media scheme's address of a song (default: `cadence-media://song/…`). */
  mediaUrl?: (key: CacheKey) => string
  now?: () => number
}

const MIB = 1024 * 1024
/** Unused covers are swept this long after the start. */
const SWEEP_DELAY_MS = 30_000
/**
 * The wiring of the media cache, the download queue and offline mode: resolving from disk is
 * `resolve.ts`, the IPC handlers `handlers.ts`, the media scheme's cached source `../media/`. The core
 * builds it once; the media scheme's handler asks `playable()` for a file to serve.
 */
export function createOffline(deps: OfflineDeps) {
  const fs = deps.fs ?? realCacheFs
  const toMediaUrl =
    deps.mediaUrl ??
    ((key: CacheKey) => schemeUrl({ sourceId: key.sourceId, songId: key.songId, br: key.bitrate }))
  const now = deps.now ?? Date.now
  // Without a folder given (tests, the e2e harness), each core gets its own: two cores in one process
  // must not share one, since `dispose` deletes it.
  const dir = deps.mediaDir ?? join(tmpdir(), `cadence-media-cache-${process.pid}-${randomUUID()}`)
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

  const availability = debouncedWrite(
    () => deps.events.emit('media:available-changed', available()),
    300,
    deps.timers,
  )
  const availabilityChanged = availability.schedule

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
      const url = playableUrl(song)
      if (!url) return { playable: false, reason: song.privilege?.reason }
      return {
        playable: true,
        origin: { url, size: song.meta?.size, md5: song.meta?.md5 },
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

  const available = (): OfflineAvailability => availableOffline(cache, downloads, deps.activeSourceId())

  const { playable, resolveOffline, wrapResolve } = createDiskResolver({
    cache,
    extras,
    monitor,
    activeSourceId: deps.activeSourceId,
    sourceName: deps.sourceName,
    mediaUrl: toMediaUrl,
  })

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

  const handlers = createOfflineHandlers({
    cache,
    downloads,
    extras,
    monitor,
    dir,
    activeSourceId: deps.activeSourceId,
    availabilityChanged,
    log: deps.log('downloads'),
  })

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
    forgetSource: (sourceId: string) =>
      removeDownloads(downloads, extras, () => downloads.forgetSource(sourceId)),
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
      availability.cancel()
      deps.timers.clearTimeout(sweepTimer)
      await cache.close()
      // A folder of our own under the OS temp dir (tests, the e2e harness) goes with the core.
      if (deps.mediaDir === undefined)
        await fs.rm(dir, { force: true, recursive: true }).catch(() => undefined)
    },
  }
}

export type Offline = ReturnType<typeof createOffline>
