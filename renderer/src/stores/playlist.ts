import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Id } from '@shared/api/models'
import { invoke } from '@renderer/services/cadence'
import { useAsyncState } from './async'

/** The playlist being viewed (`#/playlist/:id`): detail with all its songs. */
export const usePlaylistStore = defineStore('playlist', () => {
  const id = ref<Id>()
  const detail = useAsyncState(() => invoke('catalog:playlist', { id: id.value! }))

  function open(next: Id) {
    if (String(next) !== String(id.value)) detail.data.value = undefined
    id.value = next
    return detail.load()
  }

  return { id, detail, open }
})
