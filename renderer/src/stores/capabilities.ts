import { defineStore } from 'pinia'
import { shallowRef, watch } from 'vue'
import type { Capabilities, DataSourceExtension } from '@shared/ipc/contract'
import { invoke, on } from '@renderer/services/cadence'
import { useSourcesStore } from './sources'

/**
 * What the active data source offers beyond the API document, as main learnt it by use
 * (`capabilities:get`, `capabilities:changed`). An extension not tried yet counts as offered: using it
 * is how the app finds out, and one that turns out absent is then hidden.
 */
export const useCapabilitiesStore = defineStore('capabilities', () => {
  const sources = useSourcesStore()
  const known = shallowRef<Capabilities>()
  let started = false

  async function load() {
    try {
      known.value = await invoke('capabilities:get')
    } catch {
      known.value = undefined
    }
  }
  /** Called once by the app shell. */
  function start() {
    if (started) return
    started = true
    on('capabilities:changed', (change) => {
      if (String(change.sourceId) === String(sources.activeId ?? change.sourceId))
        known.value = change.capabilities
    })
    watch(() => sources.activeId, load)
    void load()
  }
  /** Whether the source may have it (offered until an answer said it is absent). */
  const offers = (extension: DataSourceExtension) => known.value?.[extension] !== 'absent'
  /** Whether the source answered it already. */
  const confirmed = (extension: DataSourceExtension) => known.value?.[extension] === 'present'

  return { known, start, load, offers, confirmed }
})
