import { computed, watchEffect } from 'vue'
import { usePreferredDark } from '@vueuse/core'
import { useI18n } from 'vue-i18n'
import { useSettingsStore } from '@renderer/stores/settings'

/**
 * Applies theme and language live: `data-theme` on <html> is `light` or `dark` (system follows
 * `prefers-color-scheme` as it changes), and vue-i18n's locale follows the language setting.
 */
export function useAppearance() {
  const settings = useSettingsStore()
  const prefersDark = usePreferredDark()
  const { locale } = useI18n({ useScope: 'global' })
  const resolved = computed(() =>
    settings.theme === 'system' ? (prefersDark.value ? 'dark' : 'light') : settings.theme,
  )
  watchEffect(() => {
    const root = document.documentElement
    root.dataset.theme = resolved.value
    root.dataset.themeSetting = settings.theme
    root.style.colorScheme = resolved.value
  })
  watchEffect(() => {
    locale.value = settings.language
    document.documentElement.lang = settings.language
  })
  return { resolved }
}
