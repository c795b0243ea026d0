import { defineStore } from 'pinia'
import { invoke } from '@renderer/services/cadence'
import { useAsyncState } from './async'

/** The Home view's sections, each with its own loading, empty and error state. */
export const useHomeStore = defineStore('home', () => {
  const playlists = useAsyncState(() => invoke('catalog:recommend-playlists', { limit: 12 }))

  return { playlists }
})
