import { mountInDocument } from './support'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { enableAutoUnmount, flushPromises } from '@vue/test-utils'
import { afterEach } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import type { Song } from '@shared/api/models'
import NowPlayingSong from '@renderer/components/now-playing/NowPlayingSong.vue'
import { useAuthStore } from '@renderer/stores/auth'
import { useNotificationsStore } from '@renderer/stores/notifications'

/**
 * Issue 36: now-playing's artist and album links of a song from another source than the active one open
 * that song's source's pages. Pages show the active source, so the link makes the song's source the
 * active one first (the one queue survives a switch), then opens the page.
 */
let active = 'builtin'
const calls: Array<[string, unknown]> = []
let refuse = false
const invoke = vi.fn(async (channel: string, args?: unknown) => {
  calls.push([channel, args])
  if (channel === 'auth:status') return { status: 'signed-out', user: null, sourceId: active }
  if (channel === 'sources:activate') {
    if (refuse) throw Object.assign(new Error('This data source was removed.'), { kind: 'not-found' })
    active = (args as { id: string }).id
    return undefined
  }
  if (channel === 'sources:list') return { sources: [], activeId: active }
  return undefined
})
vi.mock('@renderer/services/cadence', () => ({
  invoke: (channel: string, args?: unknown) => invoke(channel, args),
  on: () => () => undefined,
}))

const song = (sourceId: string) =>
  ({
    id: 41,
    name: 'Elsewhere',
    tns: [],
    artists: [{ id: 7, name: 'Far Artist' }],
    album: { id: 9, name: 'Far Album', artists: [] },
    sourceId,
  }) as unknown as Song

async function mountSong(sourceId: string) {
  const pinia = createPinia()
  setActivePinia(pinia)
  await useAuthStore(pinia).refresh()
  const { wrapper, router } = await mountInDocument(NowPlayingSong, pinia, { song: song(sourceId) })
  calls.length = 0
  return { wrapper, router, pinia }
}

beforeEach(() => {
  active = 'builtin'
  refuse = false
  calls.length = 0
  document.body.innerHTML = ''
})
enableAutoUnmount(afterEach)

describe('now-playing links of a song of another source', () => {
  it('makes the song’s source active, then opens its artist page', async () => {
    const { wrapper, router } = await mountSong('quirk')
    await wrapper.get('[data-testid="now-playing-artist"]').trigger('click')
    await flushPromises()
    expect(calls.filter(([c]) => c === 'sources:activate')).toEqual([['sources:activate', { id: 'quirk' }]])
    expect(active).toBe('quirk')
    expect(router.currentRoute.value.name).toBe('artist')
    expect(router.currentRoute.value.params.id).toBe('7')
    expect(wrapper.emitted('navigate')).toHaveLength(1)
  })

  it('opens the album page on the song’s source', async () => {
    const { wrapper, router } = await mountSong('quirk')
    await wrapper.get('[data-testid="now-playing-album"]').trigger('click')
    await flushPromises()
    expect(active).toBe('quirk')
    expect(router.currentRoute.value.name).toBe('album')
    expect(router.currentRoute.value.params.id).toBe('9')
  })

  it('switches nothing for a song of the active source', async () => {
    const { wrapper, router } = await mountSong('builtin')
    expect(wrapper.get('[data-testid="now-playing-artist"]').attributes('href')).toContain('/artist/7')
    await wrapper.get('[data-testid="now-playing-artist"]').trigger('click')
    await flushPromises()
    expect(calls.filter(([c]) => c === 'sources:activate')).toEqual([])
    expect(router.currentRoute.value.name).toBe('artist')
  })

  it('stays and says why when the song’s source cannot be made active', async () => {
    refuse = true
    const { wrapper, router, pinia } = await mountSong('gone')
    await wrapper.get('[data-testid="now-playing-artist"]').trigger('click')
    await flushPromises()
    expect(router.currentRoute.value.name).toBe('home')
    expect(useNotificationsStore(pinia).items.map((n) => n.message)).toContain(
      'This data source was removed.',
    )
  })
})
