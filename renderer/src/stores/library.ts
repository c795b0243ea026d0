import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { Playlist } from '@shared/api/models'
import type { CadenceError } from '@shared/errors'
import { invoke } from '@renderer/services/cadence'
import type { AsyncStatus } from '@renderer/stores/async-state'
import { toCadenceError } from '@renderer/services/cadence-error'

export const LIBRARY_PAGE_SIZE = 30

/** Whether a playlist is the user's liked-songs playlist (the reference server marks it in `meta`). */
export function isLikedPlaylist(playlist: Pick<Playlist, 'id' | 'meta'>, likedId?: unknown): boolean {
  return playlist.meta?.kind === 'liked' || (likedId !== undefined && String(playlist.id) === String(likedId))
}

/** The signed-in user's playlists, fetched a page at a time as the user scrolls. */
export const useLibraryStore = defineStore('library', () => {
  const playlists = shallowRef<Playlist[]>([])
  const status = ref<AsyncStatus>('idle')
  const error = shallowRef<CadenceError>()
  const done = ref(false)
  let generation = 0

  async function loadMore() {
    if (status.value === 'loading' || done.value) return
    const mine = generation
    status.value = 'loading'
    error.value = undefined
    try {
      const page = await invoke('catalog:user-playlists', {
        limit: LIBRARY_PAGE_SIZE,
        offset: playlists.value.length,
      })
      if (mine !== generation) return
      const known = new Set(playlists.value.map((p) => String(p.id)))
      playlists.value = [...playlists.value, ...page.filter((p) => !known.has(String(p.id)))]
      done.value = page.length < LIBRARY_PAGE_SIZE
      status.value = 'ready'
    } catch (cause) {
      if (mine !== generation) return
      error.value = toCadenceError(cause)
      status.value = 'error'
    }
  }
  /** Forgets what was loaded (another user or data source, or a like changed the liked playlist). */
  function reset() {
    generation++
    playlists.value = []
    status.value = 'idle'
    error.value = undefined
    done.value = false
  }
  function reload() {
    reset()
    return loadMore()
  }

  return {
    playlists,
    status,
    error,
    done,
    empty: computed(() => status.value === 'ready' && playlists.value.length === 0),
    loadMore,
    reset,
    reload,
  }
})
