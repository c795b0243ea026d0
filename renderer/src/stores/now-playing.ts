import { defineStore } from 'pinia'
import { ref } from 'vue'

/**
 * Whether the now-playing screen covers the window. It is an overlay, not a page: the page behind keeps
 * its place (scroll, list state) and is there again when the screen closes.
 */
export const useNowPlayingStore = defineStore('now-playing', () => {
  const open = ref(false)
  /**
   * Where focus was when the screen was asked for, taken before the page behind goes inert (the screen is
   * a lazy chunk and may mount a moment later, when focus has already left the inert page).
   */
  let opener: HTMLElement | null = null
  const show = () => {
    if (!open.value && typeof document !== 'undefined')
      opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    open.value = true
  }
  const hide = () => void (open.value = false)
  return {
    open,
    show,
    hide,
    toggle: () => (open.value ? hide() : show()),
    /** The element to give focus back to when the screen closes (taken once). */
    takeOpener: (): HTMLElement | null => {
      const element = opener
      opener = null
      return element
    },
  }
})
