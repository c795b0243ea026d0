import type { CollectionSong } from './collection-song'

/**
 * What crosses IPC for the offline features: downloads, the media cache and offline mode.
 * Types only, like the rest of the contract; the channels are declared in `./contract` and `./schemas`.
 */

/**
 * A download: `queued` waits its turn, `downloading` runs, `waiting` waits for the data source to come
 * back or for a retry (with `retryAt`), `done` plays offline, `failed` gave up (`error` says why).
 */
export type DownloadState = 'queued' | 'downloading' | 'waiting' | 'done' | 'failed'

export interface DownloadRow {
  /** The song as its list showed it (what the Downloaded view lists). */
  song: CollectionSong
  sourceId: string
  bitrate: number
  state: DownloadState
  /** Bytes on disk when done; the expected size while downloading, when the server said. */
  size?: number
  received?: number
  error?: string
  /** When a `waiting` download is tried again (ms since the epoch). */
  retryAt?: number
  addedAt: number
}

export interface DownloadsSummary {
  /** The whole queue is paused (by the user, or by a full disk: then `message` says so). */
  paused: boolean
  message?: string
  total: number
  queued: number
  downloading: number
  waiting: number
  done: number
  failed: number
  /** Bytes of the finished downloads. */
  downloadedBytes: number
  /** Changes whenever a row does, so a view knows to reload the page it shows. */
  revision: number
}

export interface DownloadsPage {
  total: number
  offset: number
  rows: DownloadRow[]
}

/** The cache of played songs and the downloads on disk (Settings shows it). */
export interface MediaCacheInfo {
  cachedBytes: number
  cachedCount: number
  downloadedBytes: number
  downloadedCount: number
  maxBytes: number
  /** The folder the files live in. */
  dir: string
}

/** Which songs of the active data source play without the network (the badge in song lists). */
export interface OfflineAvailability {
  sourceId: string
  /** Song ids with a download. */
  downloaded: string[]
  /** Song ids with only a cached (played) copy. */
  cached: string[]
  /** Song ids whose download is still to come (queued, downloading, waiting). */
  pending?: string[]
}

/** The active data source cannot be reached: the app keeps playing what it has. */
export interface OfflineState {
  offline: boolean
  /** When it went offline (ms since the epoch). */
  since?: number
  /** What failed, in words a person can read. */
  reason?: string
}
