import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type { Settings, SettingsPatch } from '@shared/settings'
import type { CadenceError } from '@shared/errors'
import { invoke, on } from '@renderer/services/cadence'
import type { AsyncStatus } from '@renderer/stores/async-state'
import { toCadenceError } from '@renderer/services/cadence-error'

/**
 * User settings from main (`settings:get`, `settings:changed`); changes go through `settings:update`,
 * applied at once and rolled back if main refuses. Until main answers, the defaults apply.
 */
export const useSettingsStore = defineStore('settings', () => {
  const settings = shallowRef<Settings>(DEFAULT_SETTINGS)
  const status = ref<AsyncStatus>('idle')
  const error = shallowRef<CadenceError>()
  let unsubscribe: (() => void) | undefined

  async function load() {
    status.value = 'loading'
    error.value = undefined
    unsubscribe ??= on('settings:changed', (next) => (settings.value = next))
    try {
      // An answer without settings (a test's bridge) keeps what is shown: never an undefined store.
      settings.value = (await invoke('settings:get')) ?? settings.value
      status.value = 'ready'
    } catch (cause) {
      error.value = toCadenceError(cause)
      status.value = 'error'
    }
  }

  /** Applies the patch now; on refusal restores what was there and rethrows. */
  async function update(patch: SettingsPatch) {
    const before = settings.value
    settings.value = {
      ...before,
      ...patch,
      lyrics: { ...before.lyrics, ...patch.lyrics },
    } as Settings
    try {
      settings.value = (await invoke('settings:update', patch)) ?? settings.value
    } catch (cause) {
      settings.value = before
      throw toCadenceError(cause)
    }
  }

  return {
    settings,
    status,
    error,
    theme: computed(() => settings.value.theme),
    language: computed(() => settings.value.language),
    load,
    update,
  }
})
