import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { UpdateState } from '@shared/ipc/contract'
import { invoke, on } from '@renderer/services/cadence'

/**
 * The installed app's updates as main reports them (`updates:changed`): the window offers "Restart to
 * update" once one is downloaded and verified, and says once when a download was refused. Nothing is
 * shown while checking, downloading or when the feed cannot be reached.
 */
export const useUpdatesStore = defineStore('updates', () => {
  const state = ref<UpdateState>({ status: 'idle', checkedAt: null, nextCheckAt: null })
  /** The refused version the user dismissed (not shown again for it). */
  const dismissed = ref<string | null>(null)
  let unsubscribe: (() => void) | undefined

  async function init() {
    try {
      unsubscribe ??= on('updates:changed', (next) => (state.value = next))
      state.value = await invoke('updates:state')
    } catch {
      // No bridge or no updater: nothing to show.
    }
  }
  function dismiss() {
    if (state.value.status === 'failed') dismissed.value = state.value.version
  }
  const restart = () => invoke('updates:install')

  return { state, dismissed, init, dismiss, restart }
})
