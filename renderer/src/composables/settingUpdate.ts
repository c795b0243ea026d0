import type { SettingsPatch } from '@shared/settings'
import { useSettingsStore } from '@renderer/stores/settings'
import { useFailure } from './failure'

/** Changes a setting; a refusal is rolled back by the store and reported here. */
export function useSettingUpdate() {
  const settings = useSettingsStore()
  const fail = useFailure()
  return async (patch: SettingsPatch) => {
    try {
      await settings.update(patch)
    } catch (error) {
      fail('settings.saveFailed', error)
    }
  }
}
