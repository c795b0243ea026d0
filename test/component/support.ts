import { vi } from 'vitest'
import type { Component } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import type { VueWrapper } from '@vue/test-utils'
import type { Pinia } from 'pinia'
import { createTestingPinia } from '@pinia/testing'
import type { TestingPinia } from '@pinia/testing'
import { createRouter, createMemoryHistory } from 'vue-router'
import type { Router } from 'vue-router'
import { createAppI18n } from '@renderer/i18n'
import type { Song } from '@shared/api/models'

/** A memory router with the pages components link to, each an empty page. */
export function stubRouter(): Router {
  return createRouter({
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
}

/** Everything a mounted component needs: a testing Pinia (real actions), i18n and a memory router. */
export function plugins(): { router: Router; pinia: TestingPinia; i18n: ReturnType<typeof createAppI18n> } {
  return {
    router: stubRouter(),
    pinia: createTestingPinia({ createSpy: vi.fn, stubActions: false }),
    i18n: createAppI18n(),
  }
}

/**
 * `component` mounted in the document as the app has it: with `pinia`, the app's i18n and a stub router
 * at `/`, its first loads done.
 */
export async function mountInDocument(
  component: Component,
  pinia: Pinia,
  props?: Record<string, unknown>,
): Promise<{ wrapper: VueWrapper; router: Router }> {
  const router = stubRouter()
  await router.push('/')
  const wrapper = mount(component, {
    props,
    attachTo: document.body,
    global: { plugins: [pinia, createAppI18n(), router] },
  })
  await flushPromises()
  return { wrapper, router }
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
