import { ref } from 'vue'
import { invoke } from '@renderer/services/cadence'

/**
 * Asks main to ask the data source at once whether it is back (`offline:check`), instead of waiting out
 * the probe's back-off: on "Try again", and when the network comes back. `checking` is true meanwhile;
 * the answer arrives as `offline:changed`, as every change of offline mode does.
 */
export function useOfflineRecheck() {
  const checking = ref(false)
  async function check() {
    if (checking.value) return
    checking.value = true
    try {
      await invoke('offline:check', undefined)
    } catch {
      // Still offline or the bridge refused: the banner stays, and the probe goes on by itself.
    } finally {
      checking.value = false
    }
  }
  return { checking, check }
}
