import { defineStore } from 'pinia'
import { reactive, shallowRef } from 'vue'
import type { Song } from '@shared/api/models'
import type {
  DownloadsSummary,
  MediaCacheInfo,
  OfflineAvailability,
  OfflineState,
} from '@shared/ipc/contract'
import { coverMediaUrl } from '@shared/player/media-url'
import type { SourcedSong } from '@shared/player/media-url'
import { invoke, on } from '@renderer/services/cadence'
import { toCollectionSong } from './collection'

const isRemote = (url: string) => /^https?:\/\//i.test(url)

/** Where a song plays from without the network: a download, or only the cache of played songs. */
export type OfflineAvailabilityKind = 'downloaded' | 'cached'

const EMPTY_SUMMARY: DownloadsSummary = {
  paused: false,
  total: 0,
  queued: 0,
  downloading: 0,
  waiting: 0,
  done: 0,
  failed: 0,
  downloadedBytes: 0,
  revision: 0,
}

/**
 * Offline mode, downloads and the media cache as the renderer sees them: whether the data
 * source can be reached, which songs play without it (the badge in song lists), the download queue's
 * summary, and what the cache holds (Settings). Main decides everything; this store follows its events.
 */
export const useOfflineStore = defineStore('offline', () => {
  const state = shallowRef<OfflineState>({ offline: false })
  const downloaded = shallowRef<ReadonlySet<string>>(new Set())
  const cached = shallowRef<ReadonlySet<string>>(new Set())
  /** Song ids of the active source whose download is still to come. */
  const pending = shallowRef<ReadonlySet<string>>(new Set())
  const summary = shallowRef<DownloadsSummary>(EMPTY_SUMMARY)
  const cacheInfo = shallowRef<MediaCacheInfo>()
  // Reactive sets: Vue tracks `has(url)` per address, so one cover failing re-checks the images of that
  // address only (a new Set per failure made every cover on a page of dead addresses check again).
  /** Cover addresses that did not load from the data source: shown from main's kept copy instead. */
  const failedCovers = reactive(new Set<string>())
  /** Cover addresses whose kept copy failed too: a placeholder shows until the source is back. */
  const missingCovers = reactive(new Set<string>())
  /** Called once per change to offline (the layout says so in a toast). */
  const listeners = new Set<(next: OfflineState) => void>()
  let started = false

  /** The source the availability sets are of (the active one). */
  let availableOf: string | undefined
  const setAvailability = (a: OfflineAvailability) => {
    availableOf = a.sourceId
    downloaded.value = new Set(a.downloaded)
    cached.value = new Set(a.cached)
    pending.value = new Set(a.pending ?? [])
  }
  const setState = (next: OfflineState) => {
    const changed = next.offline !== state.value.offline
    state.value = next
    // Back online: covers load from the data source again (the placeholders try again too).
    if (changed && !next.offline) {
      failedCovers.clear()
      missingCovers.clear()
    }
    if (changed) for (const listener of listeners) listener(next)
  }

  /** Subscribes to main's events and reads the current state (once per window). */
  function start() {
    if (started) return
    started = true
    on('offline:changed', setState)
    on('media:available-changed', setAvailability)
    on('downloads:changed', (next) => (summary.value = next))
    // Asked after this turn, and failures ignored: a window without the bridge (tests) shows no badges.
    const ask = <T>(call: () => Promise<T>, use: (value: T) => void) =>
      void Promise.resolve()
        .then(call)
        .then((value) => value !== undefined && use(value))
        .catch(() => undefined)
    ask(() => invoke('offline:state', undefined), setState)
    ask(() => invoke('media:available', undefined), setAvailability)
    ask(
      () => invoke('downloads:summary', undefined),
      (s) => (summary.value = s),
    )
  }

  function availability(song: Song | undefined): OfflineAvailabilityKind | undefined {
    if (!song) return undefined
    // The sets are the active source's: of a song of another source (in one of the user's playlists, in
    // the queue) nothing is known here.
    const sourceId = (song as SourcedSong).sourceId
    if (sourceId && availableOf !== undefined && sourceId !== availableOf) return undefined
    const id = String(song.id)
    if (downloaded.value.has(id)) return 'downloaded'
    if (cached.value.has(id)) return 'cached'
    return undefined
  }

  /** Whether a cover loads from main's kept copy: offline, or after it failed from the data source. */
  function coverFromDisk(url: string | undefined): boolean {
    return !!url && isRemote(url) && (state.value.offline || failedCovers.has(url))
  }
  /**
   * Where an `<img>` loads a cover from: the data source's address, or the copy main keeps beside the
   * songs on disk (`cadence-media://cover/`, naming `sourceId`, the source of a song of another one than
   * the active), so covers show without the data source.
   */
  function coverSrc(url: string | undefined, sourceId?: string): string | undefined {
    return url && coverFromDisk(url) ? coverMediaUrl(url, sourceId) : url
  }
  /**
   * An image of the cover `url` failed to load from `loaded`: answers true when the kept copy is worth a
   * try (it failed from the data source), false when there is nothing more to try.
   */
  function coverFailed(url: string | undefined, loaded: string): boolean {
    if (!url || !isRemote(url)) return false
    if (loaded !== url) {
      const kept = coverMediaUrl(url)
      if (loaded === kept || loaded.startsWith(`${kept}&`)) missingCovers.add(url)
      return false
    }
    failedCovers.add(url)
    return true
  }
  /** Whether a cover has no image to show (neither the source's nor a kept copy): a placeholder instead. */
  const coverMissing = (url: string | undefined) => !!url && missingCovers.has(url)

  /** Downloads songs; `cover`: the album's or playlist's own header cover, kept by main with them. */
  /** Downloads `songs`, of the active source (callers leave out a song of another: `useOtherSource`). */
  async function download(songs: readonly Song[], cover?: string) {
    const playable = songs.filter((s) => s.privilege?.playable !== false)
    if (!playable.length) return summary.value
    const list = playable.map(toCollectionSong)
    const args = cover && isRemote(cover) ? { songs: list, cover } : { songs: list }
    summary.value = await invoke('downloads:add', args)
    return summary.value
  }
  /** Removes downloads of `sourceId` (default: the active source). */
  async function remove(ids: ReadonlyArray<Song['id']>, sourceId?: string) {
    if (!ids.length) return summary.value
    summary.value = await invoke(
      'downloads:remove',
      sourceId ? { ids: [...ids], sourceId } : { ids: [...ids] },
    )
    return summary.value
  }
  const pause = async () => (summary.value = await invoke('downloads:pause', undefined))
  const resume = async () => (summary.value = await invoke('downloads:resume', undefined))
  const retry = async () => (summary.value = await invoke('downloads:retry', undefined))
  const loadCacheInfo = async () => (cacheInfo.value = await invoke('media:cache-info', undefined))
  const clearCache = async () => (cacheInfo.value = await invoke('media:clear-cache', undefined))

  return {
    state,
    downloaded,
    cached,
    pending,
    summary,
    cacheInfo,
    start,
    availability,
    coverFromDisk,
    coverSrc,
    coverFailed,
    coverMissing,
    download,
    remove,
    pause,
    resume,
    retry,
    loadCacheInfo,
    clearCache,
    onChange(listener: (next: OfflineState) => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
})
