import { createRouter, createWebHashHistory } from 'vue-router'

export const routes = [{ path: '/', name: 'home', component: () => import('./views/HomeView.vue') }]

export function createAppRouter() {
  return createRouter({ history: createWebHashHistory(), routes })
}
routes.push({ path: '/lyrics', name: 'lyrics', component: () => import('./views/LyricsView.vue') })
