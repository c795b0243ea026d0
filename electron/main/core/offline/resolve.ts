import type { Song } from '@shared/api/models'
import { DEFAULT_BITRATE } from '@shared/player/quality'
import type { Handlers } from '../ipc/router'
import type { CacheKey, CachedFile, MediaCache } from '../media-cache'
import type { ExtrasStore } from './extras'
import type { OfflineMonitor } from './monitor'

/** The reason the queue shows for a song skipped offline. */
export const NOT_OFFLINE =
  'Not available offline: the data source cannot be reached and this song is not on this computer'

export interface DiskResolverDeps {
  cache: MediaCache
  extras: ExtrasStore
  monitor: OfflineMonitor
  activeSourceId: () => string
  /** The media scheme's address of a song. */
  mediaUrl: (key: CacheKey) => string
}

/**
 * Resolving a song from this computer's disk: the file to serve (`playable`), `player:resolve` answered
 * from a kept song (`resolveOffline`), and `player:resolve` with the cache and offline mode in front of
 * the network (`wrapResolve`).
 */
export function createDiskResolver(deps: DiskResolverDeps) {
  const { cache, extras, monitor } = deps

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
        sourceId: args.sourceId ?? deps.activeSourceId(),
        songId: String(args.id),
        bitrate: args.br ?? DEFAULT_BITRATE,
      }
      // A song of another source than the active one (a download) plays from its own source's files.
      if (monitor.isOffline() || key.sourceId !== deps.activeSourceId())
        return resolveOffline(key, deps.mediaUrl)
      if (cache.bestFor(key)) {
        const fromDisk = await resolveOffline(key, deps.mediaUrl, { needKept: true })
        if (fromDisk) return fromDisk
      }
      try {
        return await resolve(args, context)
      } catch (error) {
        // Offline only when the source cannot be reached: one slow or failed answer is this song's failure.
        if (!(await monitor.settle(error))) throw error
        return resolveOffline(key, deps.mediaUrl)
      }
    }

  return { playable, resolveOffline, wrapResolve }
}
