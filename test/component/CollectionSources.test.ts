import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import type { AuthState, CollectionPlaylist, SourceList } from '@shared/ipc/contract'
import CollectionView from '@renderer/views/CollectionView.vue'
import { toCollectionSong } from '@renderer/stores/collection'
import { useAuthStore } from '@renderer/stores/auth'
import { useNotificationsStore } from '@renderer/stores/notifications'
import { plugins, song } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => undefined,
}))

/** One of the user's playlists with a song of the active source, one of another, one of a removed one. */
const SOURCES: SourceList = {
  activeId: 'builtin',
  sources: [
    { id: 'builtin', name: 'Built-in library', url: 'http://127.0.0.1:1', builtin: true, insecure: false },
    { id: 'home', name: 'Home server', url: 'http://192.168.1.9:4000', builtin: false, insecure: true },
  ],
}
const mixed = (ids: Array<[number, string]>): CollectionPlaylist => ({
  id: 'p1',
  name: 'Both',
  size: ids.length,
  durationMs: 0,
  createdAt: 1,
  updatedAt: 1,
  songs: ids.map(([id, sourceId]) => toCollectionSong(song(id, { sourceId }))),
})

async function mountView(list: CollectionPlaylist) {
  invoke.mockImplementation(async (channel: string) => {
    if (channel === 'collection:get') return list
    if (channel === 'sources:list') return SOURCES
    if (channel === 'collection:remove') return mixed([[1, 'builtin']])
    return channel === 'collection:list' ? [] : undefined
  })
  const p = plugins()
  p.router.addRoute({ path: '/collection/:id', name: 'collection', component: { template: '<div />' } })
  p.router.addRoute({ path: '/album/:id?', name: 'album', component: { template: '<div />' } })
  useAuthStore(p.pinia).state = { sourceId: 'builtin', status: 'signed-in' } as AuthState
  const wrapper = mount(CollectionView, {
    props: { id: 'p1' },
    attachTo: document.body,
    global: { plugins: [p.pinia, p.i18n, p.router] },
  })
  await flushPromises()
  return { wrapper, router: p.router }
}
const labels = (wrapper: { findAll(s: string): Array<{ text(): string }> }) =>
  wrapper.findAll('[data-testid="song-source"]').map((n) => n.text())

describe('One of your playlists across data sources', () => {
  beforeEach(() => {
    invoke.mockReset()
    document.body.innerHTML = ''
  })

  it('names each row’s source when the songs mix sources, and marks a removed source’s song', async () => {
    const { wrapper } = await mountView(
      mixed([
        [1, 'builtin'],
        [2, 'home'],
        [3, 'gone'],
      ]),
    )
    expect(labels(wrapper)).toEqual(['Built-in library', 'Home server', 'a removed data source'])
    // Downloads are the active source's: another source's song shows no badge of them, and its menu
    // offers no Download.
    expect(wrapper.findAll('[data-testid^="song-offline-"]')).toHaveLength(0)
    const rows = wrapper.findAll('[data-testid="song-row"]')
    await rows[1].trigger('contextmenu')
    expect(document.querySelector<HTMLButtonElement>('[data-menu-item="download"]')!.disabled).toBe(true)
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }))
    await flushPromises()
    await rows[0].trigger('contextmenu')
    await flushPromises()
    expect(document.querySelector<HTMLButtonElement>('[data-menu-item="download"]')!.disabled).toBe(false)
  })

  it('shows no source on rows of one source', async () => {
    const { wrapper } = await mountView(
      mixed([
        [1, 'builtin'],
        [2, 'builtin'],
      ]),
    )
    expect(wrapper.findAll('[data-testid="song-row"]')).toHaveLength(2)
    expect(labels(wrapper)).toEqual([])
  })

  it('removes a song by its id and source, and offers no album page of another source', async () => {
    const { wrapper } = await mountView(
      mixed([
        [1, 'builtin'],
        [1, 'home'],
      ]),
    )
    await wrapper.findAll('[data-testid="song-row"]')[1].trigger('contextmenu')
    expect(document.querySelector('[data-menu-item="album"]')).toBeNull()
    document.querySelector<HTMLButtonElement>('[data-menu-item="remove"]')!.click()
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('collection:remove', {
      id: 'p1',
      songIds: [{ id: 1, sourceId: 'home' }],
    })
  })

  it('keeps the album link of a song of another source from opening here, and says where it is', async () => {
    const { wrapper, router } = await mountView(
      mixed([
        [1, 'builtin'],
        [2, 'home'],
      ]),
    )
    const before = router.currentRoute.value.fullPath
    wrapper.findAll('[data-album]')[1].element.dispatchEvent(new MouseEvent('click', { bubbles: true }))
    await flushPromises()
    expect(router.currentRoute.value.fullPath).toBe(before)
    expect(useNotificationsStore().items.at(-1)?.message).toContain('This song is from Home server')
  })

  it('copies the link of a song of another source at that source', async () => {
    const { wrapper } = await mountView(
      mixed([
        [1, 'builtin'],
        [2, 'home'],
      ]),
    )
    await wrapper.findAll('[data-testid="song-row"]')[1].trigger('contextmenu')
    document.querySelector<HTMLButtonElement>('[data-menu-item="copy-link"]')!.click()
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('app:copy-text', {
      text: 'http://192.168.1.9:4000/song/detail?id=2',
    })
  })
})
