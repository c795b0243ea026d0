import type { CollectionSong, DownloadsSummary } from '@shared/ipc/contract'
import type { Logger } from '../log'
import type { KeyValueStore, Timers } from '../ports'
import type { CacheKey, MediaCache, MediaOrigin } from '../media-cache'

/** What `/song/detail` said about a song to download. */
export interface ResolvedDownload {
  playable: boolean
  reason?: string
  origin?: MediaOrigin
  /** Kept beside the file (lyrics, cover) once the audio is complete. */
  keep?: () => Promise<void>
}

export interface DownloadsDeps {
  store: KeyValueStore
  cache: MediaCache
  resolve: (key: CacheKey, signal: AbortSignal) => Promise<ResolvedDownload>
  /** The bitrate to download a song at (the user's quality). */
  bitrateFor: (song: CollectionSong) => number
  activeSourceId: () => string
  /** The data source is known to be unreachable: nothing starts, failures wait instead of counting. */
  isOffline: () => boolean
  /** The queue moved; throttled. */
  onChange: (summary: DownloadsSummary) => void
  /** A download finished or was removed: the offline badges change. */
  onAvailabilityChange?: () => void
  timers: Timers
  now?: () => number
  log: Logger
  concurrency?: number
}
