import { defineStore } from 'pinia'
import { invoke } from '@renderer/services/cadence'
import { useAsyncState } from '@renderer/stores/async-state'

/** The Home view's sections, each with its own loading, empty and error state. */
export const useHomeStore = defineStore('home', () => {
  const playlists = useAsyncState(() => invoke('catalog:recommend-playlists', { limit: 12 }))
  const toplists = useAsyncState(() => invoke('catalog:toplists', { limit: 6 }))
  const songs = useAsyncState(() => invoke('catalog:recommend-songs', { limit: 10 }))
  const artists = useAsyncState(() => invoke('catalog:recommend-artists', { limit: 8 }))

  function loadAll() {
    return Promise.all([playlists.load(), toplists.load(), songs.load(), artists.load()])
  }

  /** Forgets every section (another data source is active): the next view of Home loads afresh. */
  function reset() {
    for (const section of [playlists, toplists, songs, artists]) {
      section.data.value = undefined
      section.error.value = undefined
      section.status.value = 'idle'
    }
  }

  return { playlists, toplists, songs, artists, loadAll, reset }
})
