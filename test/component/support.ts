import { vi } from 'vitest'
import { createTestingPinia } from '@pinia/testing'
import type { TestingPinia } from '@pinia/testing'
import { createRouter, createMemoryHistory } from 'vue-router'
import type { Router } from 'vue-router'
import { createAppI18n } from '@renderer/i18n'
import type { Song } from '@shared/api/models'

/** Everything a mounted component needs: a testing Pinia (real actions), i18n and a memory router. */
export function plugins(): { router: Router; pinia: TestingPinia; i18n: ReturnType<typeof createAppI18n> } {
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', name: 'home', component: { template: '<div />' } },
      { path: '/search', name: 'search', component: { template: '<div />' } },
      { path: '/login', name: 'login', component: { template: '<div />' } },
      { path: '/artist/:id', name: 'artist', component: { template: '<div />' } },
      { path: '/playlist/:id', name: 'playlist', component: { template: '<div />' } },
      { path: '/album/:id?', name: 'album', component: { template: '<div />' } },
    ],
  })
  return {
    router,
    pinia: createTestingPinia({ createSpy: vi.fn, stubActions: false }),
    i18n: createAppI18n(),
  }
}

/** A song as the normalised model has it (optional fields may be left out here). */
export function song(id: number, extra: Record<string, unknown> = {}): Song {
  return {
    id,
    name: `Song ${id}`,
    tns: [],
    artists: [{ id: 100 + id, name: `Artist ${id}` }],
    album: { id: 200 + id, name: `Album ${id}`, artists: [] },
    duration: 185_000,
    ...extra,
  } as unknown as Song
}
