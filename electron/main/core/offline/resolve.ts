import type { Song } from '@shared/api/models'
import { DataSourceError } from '@shared/errors'
import { DEFAULT_BITRATE } from '@shared/player/quality'
import type { Handlers } from '../ipc/router'
import type { CacheKey, CachedFile, MediaCache } from '../media-cache'
import type { ExtrasStore } from './extras'
import type { OfflineMonitor } from './monitor'
import { isUnreachable } from './monitor'
import { SOURCE_REMOVED } from '../sources/active'

/** The reason the queue shows for a song skipped offline. */
export const NOT_OFFLINE =
  'Not available offline: the data source cannot be reached and this song is not on this computer'

export interface DiskResolverDeps {
  cache: MediaCache
  extras: ExtrasStore
  monitor: OfflineMonitor
  activeSourceId: () => string
  /** A data source's name, for the reason a song of it is skipped (undefined: removed). */
  sourceName?: (sourceId: string) => string | undefined
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
      if (key.sourceId !== deps.activeSourceId())
        return resolveElsewhere(key, async () => resolve(args, context))
      if (monitor.isOffline()) return resolveOffline(key, deps.mediaUrl)
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

  /**
   * A queued song of another data source than the active one: from this computer when its details are
   * kept (a download), else from its own source; a source that cannot be reached, was removed or signed
   * out leaves it unplayable with that reason (it plays from any file this computer has), so the queue
   * skips it and says why. Offline mode follows the active source only.
   */
  async function resolveElsewhere(key: CacheKey, resolve: () => Promise<Song>): Promise<Song> {
    if (cache.bestFor(key)) {
      const fromDisk = await resolveOffline(key, deps.mediaUrl, { needKept: true })
      if (fromDisk) return fromDisk
    }
    try {
      return await resolve()
    } catch (error) {
      const reason = elsewhereReason(deps.sourceName?.(key.sourceId), error)
      if (reason === undefined) throw error
      const fromDisk = await resolveOffline(key, deps.mediaUrl)
      if (fromDisk.privilege?.playable !== false) return fromDisk
      return { ...fromDisk, privilege: { ...fromDisk.privilege, reason } }
    }
  }

  return { playable, resolveOffline, wrapResolve }
}

/**
 * Why a song of another data source than the active one cannot play, when the failure is its source's
 * (removed, signed out, unreachable), or undefined when it is the song's own.
 */
export function elsewhereReason(name: string | undefined, error: unknown): string | undefined {
  if (!(error instanceof DataSourceError)) return undefined
  if (name === undefined) return SOURCE_REMOVED
  if (error.kind === 'unauthorized') return `Signed out of ${name}: sign in there to play its songs`
  if (isUnreachable(error) || (error.kind === 'http' && (error.status ?? 500) >= 500))
    return `${name} cannot be reached`
  return undefined
}
