import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { UpdateState } from '@shared/ipc/contract'
import { invoke, on } from '@renderer/services/cadence'

/** Names one refusal (a download that failed its check, or an update refused before it), to dismiss it. */
export function refusalKey(state: UpdateState): string | null {
  if (state.status === 'failed') return `failed:${state.version}`
  if (state.status === 'refused') return `refused:${state.reason}:${'version' in state ? state.version : ''}`
  return null
}

/**
 * The installed app's updates as main reports them (`updates:changed`): the window offers "Restart to
 * update" once one is downloaded and verified, and says once when an update was refused (a download
 * that failed its check, or a feed whose metadata is unsigned, wrongly signed or older than this
 * version). Nothing is shown while checking, downloading or when the feed cannot be reached.
 */
export const useUpdatesStore = defineStore('updates', () => {
  const state = ref<UpdateState>({ status: 'idle', checkedAt: null, nextCheckAt: null })
  /** The refusal the user dismissed (`refusalKey`: not shown again for it). */
  const dismissed = ref<string | null>(null)
  let unsubscribe: (() => void) | undefined

  async function init() {
    try {
      unsubscribe ??= on('updates:changed', (next) => (state.value = next))
      const now = await invoke('updates:state')
      if (now) state.value = now
    } catch {
      // No bridge or no updater: nothing to show.
    }
  }
  function dismiss() {
    dismissed.value = refusalKey(state.value) ?? dismissed.value
  }
  const restart = () => invoke('updates:install')
  /** "Check now" is running. */
  const checking = ref(false)
  async function checkNow() {
    if (checking.value) return
    checking.value = true
    try {
      const after = await invoke('updates:check')
      if (after) state.value = after
    } finally {
      checking.value = false
    }
  }

  return { state, dismissed, checking, init, dismiss, restart, checkNow }
})
