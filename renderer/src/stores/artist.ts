import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Id } from '@shared/api/models'
import { invoke } from '@renderer/services/cadence'
import { useAsyncState } from './async'

/** The artist being viewed (`#/artist/:id`): the data source answers with a Playlist-shaped object. */
export const useArtistStore = defineStore('artist', () => {
  const id = ref<Id>()
  const detail = useAsyncState(() => invoke('catalog:artist', { id: id.value! }))

  function open(next: Id) {
    if (String(next) !== String(id.value)) detail.data.value = undefined
    id.value = next
    return detail.load()
  }

  return { id, detail, open }
})
