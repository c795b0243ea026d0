import { createRouter, createWebHashHistory } from 'vue-router'
import type { RouteRecordRaw } from 'vue-router'
import { whenIdle } from './services/idle'
import { useHomeStore } from './stores/home'

declare module 'vue-router' {
  interface RouteMeta {
    /** The QR login window's page: no sidebar, no player. */
    bare?: boolean
    /** Asks for the page's data as navigation starts, while its code (and the views' English) loads. */
    warm?: () => void
  }
}

/** Home's sections are asked for at once: the first page of every start does not wait for its chunk. */
function warmHome() {
  const home = useHomeStore()
  if (home.playlists.status === 'idle') void home.loadAll()
}

export const routes: RouteRecordRaw[] = [
  { path: '/', name: 'home', component: () => import('./views/HomeView.vue'), meta: { warm: warmHome } },
  { path: '/search', name: 'search', component: () => import('./views/SearchView.vue') },
  { path: '/library', name: 'library', component: () => import('./views/LibraryView.vue') },
  { path: '/downloads', name: 'downloads', component: () => import('./views/DownloadsView.vue') },
  { path: '/history', name: 'history', component: () => import('./views/HistoryView.vue') },
  { path: '/stats', name: 'stats', component: () => import('./views/StatsView.vue') },
  { path: '/settings', name: 'settings', component: () => import('./views/SettingsView.vue') },
  {
    path: '/playlist/:id',
    name: 'playlist',
    component: () => import('./views/PlaylistView.vue'),
    props: true,
  },
  {
    path: '/album/:id?',
    name: 'album',
    component: () => import('./views/AlbumView.vue'),
    props: (route) => ({
      id: typeof route.params.id === 'string' ? route.params.id : '',
      name: typeof route.query.name === 'string' ? route.query.name : '',
      artist: typeof route.query.artist === 'string' ? route.query.artist : '',
    }),
  },
  {
    path: '/collection/:id',
    name: 'collection',
    component: () => import('./views/CollectionView.vue'),
    props: true,
  },
  { path: '/artist/:id', name: 'artist', component: () => import('./views/ArtistView.vue'), props: true },
  { path: '/login', name: 'login', component: () => import('./views/LoginView.vue'), meta: { bare: true } },
  { path: '/:rest(.*)*', redirect: '/' },
]

/**
 * Loads the playlist view's code (and the song list's) and the search view's once the window is idle, so
 * the first playlist opened or search does not wait for it; they stay out of the initial JavaScript.
 */
export function warmViews(): void {
  const warm = () => {
    void import('./views/PlaylistView.vue').catch(() => undefined)
    // `/` from anywhere opens search: its field is there at once.
    void import('./views/SearchView.vue').catch(() => undefined)
  }
  whenIdle(warm, 2000)
}

export function createAppRouter() {
  return createRouter({ history: createWebHashHistory(), routes })
}
