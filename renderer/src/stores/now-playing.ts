import { defineStore } from 'pinia'
import { ref } from 'vue'

/**
 * Whether the now-playing screen covers the window. It is an overlay, not a page: the page behind keeps
 * its place (scroll, list state) and is there again when the screen closes.
 */
export const useNowPlayingStore = defineStore('now-playing', () => {
  const open = ref(false)
  return {
    open,
    show: () => void (open.value = true),
    hide: () => void (open.value = false),
    toggle: () => void (open.value = !open.value),
  }
})
