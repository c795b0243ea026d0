import { computed, onScopeDispose, ref, watchEffect } from 'vue'
import { useI18n } from 'vue-i18n'
import { useSettingsStore } from '@renderer/stores/settings'
import { ensureLanguage, rememberLanguage } from '@renderer/i18n'

/**
 * Applies theme and language live: `data-theme` on <html> is `light` or `dark` (system follows
 * `prefers-color-scheme` as it changes), and vue-i18n's locale follows the language setting once that
 * language's messages are loaded (only English is in the initial bundle); the last request wins. The language
 * is left alone until the settings have loaded.
 */
/** Whether the system prefers a dark theme, following changes (a few lines, not @vueuse in the first bundle). */
function usePrefersDark() {
  const query = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined
  const dark = ref(query?.matches ?? false)
  const update = (event: MediaQueryListEvent) => (dark.value = event.matches)
  query?.addEventListener('change', update)
  onScopeDispose(() => query?.removeEventListener('change', update))
  return dark
}

export function useAppearance() {
  const settings = useSettingsStore()
  const prefersDark = usePrefersDark()
  const global = useI18n({ useScope: 'global' })
  const resolved = computed(() =>
    settings.theme === 'system' ? (prefersDark.value ? 'dark' : 'light') : settings.theme,
  )
  watchEffect(() => {
    const root = document.documentElement
    root.dataset.theme = resolved.value
    root.dataset.themeSetting = settings.theme
    root.style.colorScheme = resolved.value
  })
  let requested = settings.language
  watchEffect(() => {
    // Until main answers, the language shown at start (main.ts) stays: the default would flash English.
    if (settings.status === 'idle' || settings.status === 'loading') return
    const language = (requested = settings.language)
    void ensureLanguage(global, language)
      .catch(() => undefined) // A chunk that fails to load leaves the fallback (English) showing.
      .then(() => {
        if (requested !== language) return
        global.locale.value = language
        document.documentElement.lang = language
        rememberLanguage(language)
      })
  })
  return { resolved }
}
