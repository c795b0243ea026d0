import { useI18n } from 'vue-i18n'
import type { SettingsPatch } from '@shared/settings'
import { useSettingsStore } from '@renderer/stores/settings'
import { useNotificationsStore } from '@renderer/stores/notifications'

/** Changes a setting; a refusal is rolled back by the store and reported here. */
export function useSettingUpdate() {
  const { t } = useI18n()
  const settings = useSettingsStore()
  const notifications = useNotificationsStore()
  return async (patch: SettingsPatch) => {
    try {
      await settings.update(patch)
    } catch (error) {
      notifications.error(t('settings.saveFailed', { reason: (error as Error).message }))
    }
  }
}
