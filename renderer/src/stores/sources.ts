import { defineStore } from 'pinia'
import { computed } from 'vue'
import type { SourceList } from '@shared/ipc/contract'
import { invoke, on } from '@renderer/services/cadence'
import { toCadenceError } from '@renderer/services/cadence-error'
import { useAsyncState } from '@renderer/stores/async-state'

/** The data sources main knows (built-in first) and which one is active. */
export const useSourcesStore = defineStore('sources', () => {
  const list = useAsyncState(() => invoke('sources:list'))
  let unsubscribe: (() => void) | undefined

  const sources = computed(() =>
    [...(list.data.value?.sources ?? [])].sort((a, b) => Number(b.builtin) - Number(a.builtin)),
  )
  const activeId = computed(() => list.data.value?.activeId)

  function set(next: SourceList) {
    list.data.value = next
    list.status.value = 'ready'
  }
  function load() {
    unsubscribe ??= on('sources:changed', set)
    return list.load()
  }
  /** Each action rethrows a CadenceError for the view to show; the list refreshes after a change. */
  async function run(action: () => Promise<unknown>) {
    try {
      await action()
    } catch (cause) {
      throw toCadenceError(cause)
    } finally {
      await list.load()
    }
  }

  return {
    list,
    sources,
    activeId,
    load,
    add: (url: string) => run(() => invoke('sources:add', { url })),
    remove: (id: string) => run(() => invoke('sources:remove', { id })),
    activate: (id: string) => run(() => invoke('sources:activate', { id })),
    /** The one more local host the source may point media and covers at (`''` clears it). */
    setLocalHost: (id: string, host: string) => run(() => invoke('sources:set-local-host', { id, host })),
    rename: (id: string, name: string) => run(() => invoke('sources:rename', { id, name })),
  }
})
