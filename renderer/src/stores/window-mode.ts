import { defineStore } from 'pinia'
import { ref } from 'vue'
import { invoke, on } from '@renderer/services/cadence'
import { useNotificationsStore } from './notifications'
import { toCadenceError } from '@renderer/services/cadence-error'

/**
 * Whether the main window is the mini player. Main resizes the window (`window:set-mini`) and tells every
 * window (`window:mode`); the app shows the mini player or the full layout from this.
 */
export const useWindowModeStore = defineStore('window-mode', () => {
  const mini = ref(false)
  let unsubscribe: (() => void) | undefined

  function listen() {
    try {
      unsubscribe ??= on('window:mode', (mode) => (mini.value = mode.mini))
    } catch {
      // No bridge: always the full window.
    }
  }

  async function setMini(next: boolean) {
    listen()
    try {
      mini.value = (await invoke('window:set-mini', { mini: next })).mini
    } catch (cause) {
      useNotificationsStore().error(toCadenceError(cause).message)
    }
  }

  return { mini, listen, setMini, toggle: () => setMini(!mini.value) }
})
