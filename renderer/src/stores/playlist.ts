import { defineStore } from 'pinia'
import { ref, shallowRef, watch } from 'vue'
import type { Id, Song } from '@shared/api/models'
import type { PlaylistSort } from '@shared/ipc/contract'
import { invoke } from '@renderer/services/cadence'
import { useAsyncState } from '@renderer/stores/async-state'
import { createPagedRows } from './paged-rows'

/**
 * The playlist being viewed (`#/playlist/:id`), a page at a time: `detail` is the header with the list's
 * length and first rows (`catalog:playlist`); `rows` fills as the list asks for ranges
 * (`catalog:playlist-rows`). A search within the playlist (`query`) is answered by main over the whole
 * list, as a second paged list of the matches. Play all and shuffle ask for every row first.
 */
export const usePlaylistStore = defineStore('playlist', () => {
  const id = ref<Id>()
  const detail = useAsyncState(() => invoke('catalog:playlist', { id: id.value! }))
  const list = createPagedRows((offset, limit) =>
    invoke('catalog:playlist-rows', { id: id.value!, offset, limit }),
  )

  /**
   * The search within the playlist and the order chosen for it: together a view with its own paged list
   * (`matches`), answered by main over the whole list. Without either, the playlist's own rows show.
   */
  const query = ref('')
  const sort = ref<PlaylistSort>()
  const viewArgs = () => ({
    id: id.value!,
    ...(query.value ? { query: query.value } : {}),
    ...(sort.value ? { sort: sort.value } : {}),
  })
  const matches = createPagedRows((offset, limit) =>
    invoke('catalog:playlist-rows', { ...viewArgs(), offset, limit }),
  )
  /** `ready` once the first page of matches of the current `query` has arrived. */
  const matchStatus = ref<'idle' | 'loading' | 'ready' | 'error'>('idle')
  const matchTotal = shallowRef(0)

  // A new header: the rows start anew, unless it is the same list again (a reopen, or the refresh behind
  // it), whose rows already here are kept.
  let shown: { id: string; total: number; first: string } | undefined
  watch(detail.data, (head) => {
    if (!head) return
    const key = { id: String(head.id), total: head.total, first: head.rows.map((r) => r.id).join(',') }
    const same = shown && shown.id === key.id && shown.total === key.total && shown.first === key.first
    shown = key
    if (!same) {
      list.reset(head.total, head.rows)
      if (query.value || sort.value) void search(query.value)
    }
  })

  function open(next: Id) {
    if (String(next) !== String(id.value)) {
      detail.data.value = undefined
      shown = undefined
      query.value = ''
      sort.value = undefined
      matchStatus.value = 'idle'
    }
    id.value = next
    return detail.load()
  }

  let searchGeneration = 0
  async function search(words: string) {
    query.value = words.trim()
    const mine = ++searchGeneration
    if (!query.value && !sort.value) {
      matchStatus.value = 'idle'
      return
    }
    matchStatus.value = 'loading'
    try {
      const first = await invoke('catalog:playlist-rows', { ...viewArgs(), offset: 0, limit: 200 })
      if (mine !== searchGeneration) return
      matches.reset(first.total, first.rows)
      matchTotal.value = first.total
      matchStatus.value = 'ready'
    } catch {
      if (mine === searchGeneration) matchStatus.value = 'error'
    }
  }

  /** Every song of the playlist (for play all and shuffle). */
  const allSongs = (): Promise<Song[]> => list.all()
  /** Every match of the search (to play from a row of the matches). */
  const allMatches = (): Promise<Song[]> => matches.all()

  return {
    id,
    detail,
    open,
    rows: list.rows,
    ensureRows: list.ensure,
    allSongs,
    query,
    search,
    sort,
    /** Orders the rows by `next` (undefined: the playlist's own order), keeping the search. */
    setSort(next: PlaylistSort | undefined) {
      sort.value = next
      return search(query.value)
    },
    matchStatus,
    matchTotal,
    matchRows: matches.rows,
    ensureMatches: matches.ensure,
    allMatches,
  }
})
