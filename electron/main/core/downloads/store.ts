import type {
  CollectionSong,
  DownloadRow,
  DownloadsPage,
  DownloadsSummary,
  DownloadState,
} from '@shared/ipc/contract'
import type { KeyValueStore } from '../ports'

export const DOWNLOADS_KEY = 'downloads'

export interface Item {
  song: CollectionSong
  sourceId: string
  songId: string
  bitrate: number
  state: DownloadState
  attempts: number
  addedAt: number
  size?: number
  error?: string
  retryAt?: number
  /** Header covers of the playlists and albums it was downloaded with: kept on disk while it is here. */
  covers?: string[]
  /** Not saved: bytes so far while downloading. */
  received?: number
}

export interface Saved {
  version: 1
  paused: boolean
  message?: string
  items: Item[]
}

export const itemKey = (sourceId: string, songId: string) => `${sourceId}\u0000${songId}`

/** A song added to the queue: queued, or failed at once when the data source says it does not play it. */
export function newItem(song: CollectionSong, sourceId: string, bitrate: number, addedAt: number): Item {
  const base = { song, sourceId, songId: String(song.id), bitrate, attempts: 0, addedAt }
  if (song.privilege?.playable === false) {
    const error = song.privilege.reason ?? 'The data source does not play this song'
    return { ...base, state: 'failed', error }
  }
  return { ...base, state: 'queued' }
}

/** The queue as the store kept it (a download cut short by a quit starts again). */
export function loadQueue(store: KeyValueStore): {
  paused: boolean
  message: string | undefined
  items: Map<string, Item>
} {
  const items = new Map<string, Item>()
  let paused = false
  let message: string | undefined
  const saved = store.get<Saved>(DOWNLOADS_KEY)
  if (saved && Array.isArray(saved.items)) {
    paused = saved.paused === true
    message = typeof saved.message === 'string' ? saved.message : undefined
    for (const raw of saved.items) {
      if (!raw || typeof raw !== 'object' || typeof raw.sourceId !== 'string' || !raw.song) continue
      const covers = Array.isArray(raw.covers) ? raw.covers.filter((c) => typeof c === 'string') : []
      const item: Item = {
        ...raw,
        songId: String(raw.song.id),
        covers: covers.length ? covers : undefined,
        received: undefined,
      }
      // A download cut short by a quit starts again.
      if (item.state === 'downloading') item.state = 'queued'
      items.set(itemKey(item.sourceId, item.songId), item)
    }
  }
  return { paused, message, items }
}

/** What the store keeps of the queue (not the bytes received so far). */
export function savedQueue(paused: boolean, message: string | undefined, items: Iterable<Item>): Saved {
  const out: Saved = { version: 1, paused, message, items: [] }
  for (const item of items) {
    const { received: _received, ...kept } = item
    out.items.push(kept)
  }
  return out
}

export function summarize(
  items: Map<string, Item>,
  paused: boolean,
  message: string | undefined,
  revision: number,
): DownloadsSummary {
  const s: DownloadsSummary = {
    paused,
    message,
    total: items.size,
    queued: 0,
    downloading: 0,
    waiting: 0,
    done: 0,
    failed: 0,
    downloadedBytes: 0,
    revision,
  }
  for (const item of items.values()) {
    s[item.state]++
    if (item.state === 'done') s.downloadedBytes += item.size ?? 0
  }
  return s
}

export const row = (item: Item): DownloadRow => ({
  song: item.song,
  sourceId: item.sourceId,
  bitrate: item.bitrate,
  state: item.state,
  size: item.size,
  received: item.received,
  error: item.error,
  retryAt: item.retryAt,
  addedAt: item.addedAt,
})

/** Still to come: downloading, queued, or waiting (for a retry, or for its source). */
const inProgress = (item: Item) =>
  item.state === 'downloading' || item.state === 'queued' || item.state === 'waiting'

/**
 * A page of the downloads as the Downloaded view lists them: the ones still to come first (in the order
 * they were added), then the finished and the failed; `done` lists only the finished.
 */
export function listPage(
  items: Map<string, Item>,
  { offset, limit, done }: { offset: number; limit: number; done?: boolean },
): DownloadsPage {
  const rows: DownloadRow[] = []
  let index = 0
  let total = 0
  const take = (item: Item) => {
    total++
    if (index++ >= offset && rows.length < limit) rows.push(row(item))
  }
  if (!done) for (const item of items.values()) if (inProgress(item)) take(item)
  for (const item of items.values()) if (done ? item.state === 'done' : !inProgress(item)) take(item)
  return { total, offset, rows }
}

/** The header covers `items` refer to. */
export function coversOf(items: Iterable<Item>): Set<string> {
  const out = new Set<string>()
  for (const item of items) for (const cover of item.covers ?? []) out.add(cover)
  return out
}

/** Song ids of `sourceId`'s items in one of `states`. */
export function idsOf(items: Iterable<Item>, sourceId: string, states: readonly DownloadState[]): string[] {
  const out: string[] = []
  for (const item of items)
    if (item.sourceId === sourceId && states.includes(item.state)) out.push(item.songId)
  return out
}
