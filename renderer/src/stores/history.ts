import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { Song } from '@shared/api/models'
import type { SourcedSong } from '@shared/player/media-url'
import type { HistoryCursor, HistoryEntry, HistoryState } from '@shared/ipc/history'
import { invoke, on } from '@renderer/services/cadence'
import { toCadenceError } from '@renderer/services/cadence-error'
import type { CadenceError } from '@shared/errors'

/** Listens asked of main at a time ("Recently played" shows more as it is scrolled). */
export const HISTORY_PAGE = 200
/** The first page: a few screens, so the view opens at once (rendering 200 rows took three times longer). */
export const HISTORY_FIRST_PAGE = 50

/** A listen as a song to play again (what history keeps: names, album, cover, duration). */
export function listenSong(entry: HistoryEntry): Song & SourcedSong {
  const album =
    entry.album !== undefined || entry.albumId !== undefined || entry.cover !== undefined
      ? { id: entry.albumId ?? '', name: entry.album ?? '', cover: entry.cover, artists: [], size: undefined }
      : undefined
  return {
    id: entry.songId,
    name: entry.title,
    tns: [],
    artists: entry.artists.map((name) => ({ id: '', name, avatar: undefined })),
    album,
    duration: entry.durationMs,
    privilege: undefined,
    meta: undefined,
    // Played again from its own data source, whichever is active.
    sourceId: entry.sourceId,
  }
}

/**
 * The listening history as the renderer sees it (main keeps it, core/history): "Recently played" a page
 * at a time, the private session, export, import and clear. Listens are recorded by
 * `composables/listen-recorder.ts`.
 */
export const useHistoryStore = defineStore('history', () => {
  const state = ref<HistoryState>({ count: 0, private: false, waiting: 0 })
  const rows = shallowRef<HistoryEntry[]>([])
  const status = ref<'idle' | 'loading' | 'ready' | 'error'>('idle')
  const error = shallowRef<CadenceError>()
  const next = shallowRef<HistoryCursor>()
  let subscribed = false
  const more = computed(() => next.value !== undefined)

  function follow() {
    if (subscribed) return
    subscribed = true
    try {
      on('history:changed', (value) => {
        const grew = value.count !== state.value.count
        state.value = value
        // The view shows the newest: read again from the top when listens came or went.
        if (grew && status.value !== 'idle') void load()
      })
    } catch {
      // No bridge (component tests): nothing to follow.
    }
  }

  async function start() {
    follow()
    try {
      const value = await invoke('history:state')
      if (value) state.value = value
    } catch {
      // Shown as empty until main answers.
    }
  }

  /** The newest page again. */
  async function load() {
    follow()
    status.value = 'loading'
    try {
      const page = await invoke('history:page', { limit: HISTORY_FIRST_PAGE })
      rows.value = page.rows
      next.value = page.next
      state.value = { ...state.value, count: page.total }
      status.value = 'ready'
    } catch (cause) {
      error.value = toCadenceError(cause)
      status.value = 'error'
    }
  }

  let loadingMore: Promise<void> | undefined
  /** The next (older) page, appended. */
  function loadMore(): Promise<void> {
    const before = next.value
    if (!before) return Promise.resolve()
    loadingMore ??= (async () => {
      try {
        const page = await invoke('history:page', { limit: HISTORY_PAGE, before })
        rows.value = [...rows.value, ...page.rows]
        next.value = page.next
      } finally {
        loadingMore = undefined
      }
    })()
    return loadingMore
  }

  async function setPrivate(on: boolean) {
    const value = await invoke('history:set-private', { on })
    if (value) state.value = value
  }
  async function clear() {
    await invoke('history:clear')
    rows.value = []
    next.value = undefined
  }
  const exportFile = () => invoke('history:export')
  async function importFile(text: string) {
    const result = await invoke('history:import', { text })
    await load()
    return result
  }

  return {
    state,
    rows,
    status,
    error,
    more,
    start,
    load,
    loadMore,
    setPrivate,
    clear,
    exportFile,
    importFile,
  }
})
