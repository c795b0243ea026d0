import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { createAppI18n, ensureLanguage, rememberedLanguage } from './i18n'
import { createAppRouter, warmViews } from './router'
import { reportUnexpectedErrors } from './composables/unexpected-errors'
import './styles/base.css'

/** The desktop lyrics window loads `#/desktop-lyrics`: its own small root, no router, no player. */
const desktopLyrics = window.location.hash.startsWith('#/desktop-lyrics')

async function start() {
  const i18n = createAppI18n()
  // The views' English (a lazy chunk beside the frame's): fetched now, awaited before the first page.
  const english = ensureLanguage(i18n.global, 'en').catch(() => undefined)
  // The language shown last time: its messages (a lazy chunk unless English) before the first paint.
  const language = rememberedLanguage()
  if (language && language !== 'en') {
    await ensureLanguage(i18n.global, language).then(
      () => {
        i18n.global.locale.value = language
        document.documentElement.lang = language
      },
      () => undefined,
    )
  }
  // The desktop lyrics window's root is its own chunk: the main window never loads it.
  const root = desktopLyrics
    ? (await import('./components/desktop-lyrics/DesktopLyricsApp.vue')).default
    : App
  if (desktopLyrics) await english
  const app = createApp(root)
  const pinia = createPinia()
  app.use(pinia)
  reportUnexpectedErrors(app, pinia, (key) => i18n.global.t(key))
  app.use(i18n)
  if (!desktopLyrics) {
    const router = createAppRouter()
    router.beforeEach((to) => {
      // The page's data and its own chunk are fetched alongside the views' English, not after it.
      to.meta.warm?.()
      for (const record of to.matched)
        for (const component of Object.values(record.components ?? {}))
          if (typeof component === 'function')
            void (component as () => Promise<unknown>)().catch(() => undefined)
      return english
    })
    app.use(router)
  }
  app.mount('#app')
  if (!desktopLyrics && !window.location.hash.startsWith('#/login')) warmViews()
}
void start()
