import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { Album } from '@shared/api/models'
import { invoke } from '@renderer/services/cadence'
import type { AsyncStatus } from '@renderer/stores/async-state'

/**
 * The albums the user saved in their account (`GET /album/sublist`, where the data source has it).
 * `absent` once the source answered that it has no such list: the library then shows nothing for it.
 */
export const useSavedAlbumsStore = defineStore('savedAlbums', () => {
  const albums = shallowRef<Album[]>([])
  const status = ref<AsyncStatus | 'absent'>('idle')

  async function load() {
    status.value = 'loading'
    try {
      albums.value = await invoke('albums:saved')
      status.value = 'ready'
    } catch (cause) {
      albums.value = []
      status.value = (cause as { kind?: string }).kind === 'unavailable' ? 'absent' : 'error'
    }
  }
  function reset() {
    albums.value = []
    status.value = 'idle'
  }

  return { albums, status, load, reset }
})
