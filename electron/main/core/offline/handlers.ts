import type { DownloadsSummary, MediaCacheInfo, OfflineAvailability } from '@shared/ipc/contract'
import type { Downloads } from '../downloads/queue'
import type { Handlers } from '../ipc/router'
import type { Logger } from '../log'
import type { MediaCache } from '../media-cache'
import type { ExtrasStore } from './extras'
import type { OfflineMonitor } from './monitor'

export type OfflineChannels = Extract<
  keyof Handlers,
  `downloads:${string}` | `media:${string}` | `offline:${string}`
>

export interface OfflineHandlersDeps {
  cache: MediaCache
  downloads: Downloads
  extras: ExtrasStore
  monitor: OfflineMonitor
  /** The media cache folder (shown in Settings). */
  dir: string
  activeSourceId: () => string
  /** Which songs of the active source are on this computer changed (the badges follow, debounced). */
  availabilityChanged: () => void
  log: Logger
}

/** Which songs of the active source are on this computer: downloaded, or cached from a play. */
export function availableOffline(
  cache: MediaCache,
  downloads: Downloads,
  sourceId: string,
): OfflineAvailability {
  const downloaded = new Set(downloads.doneIds(sourceId))
  const cached = new Set<string>()
  for (const e of cache.entries()) {
    if (e.sourceId === sourceId && !downloaded.has(e.songId)) cached.add(e.songId)
  }
  const pending = downloads.doneIds(sourceId, ['queued', 'downloading', 'waiting'])
  return { sourceId, downloaded: [...downloaded], cached: [...cached], pending }
}

/** Removes downloads; a header cover none of the rest refers to goes at the next start's sweep. */
export async function removeDownloads(
  downloads: Downloads,
  extras: ExtrasStore,
  remove: () => Promise<DownloadsSummary>,
): Promise<DownloadsSummary> {
  const before = downloads.covers()
  const summary = await remove()
  const after = downloads.covers()
  if ([...before].some((cover) => !after.has(cover))) await extras.markSweep()
  return summary
}

/** The IPC handlers of downloads, the media cache and offline mode. */
export function createOfflineHandlers(deps: OfflineHandlersDeps): Pick<Handlers, OfflineChannels> {
  const { cache, downloads, extras, monitor } = deps
  const cacheInfo = (): MediaCacheInfo => ({ ...cache.usage(), dir: deps.dir })
  return {
    'downloads:add': ({ songs, cover }) => {
      // The list's own header cover, so its page shows it offline (fetched while the page is open).
      if (cover) {
        void extras
          .keepCover(cover, deps.activeSourceId())
          .catch((error: unknown) => deps.log.warn('could not keep a header cover', { error: String(error) }))
      }
      const summary = downloads.add(songs, cover)
      deps.availabilityChanged()
      return summary
    },
    'downloads:list': (args) => downloads.list(args),
    'downloads:summary': () => downloads.summary(),
    'downloads:remove': ({ ids, sourceId }) =>
      removeDownloads(downloads, extras, () => downloads.remove(ids, sourceId)),
    'downloads:pause': () => downloads.pause(),
    'downloads:resume': () => downloads.resume(),
    'downloads:retry': () => downloads.retry(),
    'media:cache-info': async () => {
      await cache.ready
      return cacheInfo()
    },
    'media:clear-cache': async () => {
      await cache.clear()
      deps.availabilityChanged()
      return cacheInfo()
    },
    'media:available': async () => {
      await cache.ready
      return availableOffline(cache, downloads, deps.activeSourceId())
    },
    'offline:state': () => monitor.state(),
    'offline:check': async () => (await monitor.checkNow(), monitor.state()),
  }
}
