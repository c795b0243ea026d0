import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { createAppI18n } from './i18n'
import { createAppRouter } from './router'
import './styles/base.css'

const app = createApp(App)
app.use(createPinia())
app.use(createAppI18n())
app.use(createAppRouter())
app.mount('#app')
