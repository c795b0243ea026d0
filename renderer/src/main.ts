import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import DesktopLyricsApp from './components/desktop-lyrics/DesktopLyricsApp.vue'
import { createAppI18n } from './i18n'
import { createAppRouter, warmViews } from './router'
import './styles/base.css'

/** The desktop lyrics window loads `#/desktop-lyrics`: its own small root, no router, no player. */
const desktopLyrics = window.location.hash.startsWith('#/desktop-lyrics')
const app = createApp(desktopLyrics ? DesktopLyricsApp : App)
app.use(createPinia())
app.use(createAppI18n())
if (!desktopLyrics) app.use(createAppRouter())
app.mount('#app')
if (!desktopLyrics && !window.location.hash.startsWith('#/login')) warmViews()
