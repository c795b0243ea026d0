import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { defineComponent, h } from 'vue'
import { setActivePinia } from 'pinia'
import type { Pinia } from 'pinia'
import { CadenceError } from '@shared/errors'
import type { CollectionPlaylist } from '@shared/ipc/contract'
import CollectionView from '@renderer/views/CollectionView.vue'
import CollectionAddDialog from '@renderer/components/collection/CollectionAddDialog.vue'
import SongContextMenu from '@renderer/components/song/SongContextMenu.vue'
import SongList from '@renderer/components/song/SongList.vue'
import { toCollectionSong, useCollectionStore } from '@renderer/stores/collection'
import { useNotificationsStore } from '@renderer/stores/notifications'
import { plugins, song } from './support'

enableAutoUnmount(afterEach)

/**
 * A store of the test's own Pinia. Under test, `useStore(pinia)` reads the active Pinia whatever it is
 * given, and an earlier test's component or store, still at work, makes its own Pinia the active one
 * whenever it reads a store.
 */
function storeOf<S>(pinia: Pinia, use: () => S): S {
  setActivePinia(pinia)
  return use()
}

const invoke = vi.fn()
const listeners = new Map<string, (payload: unknown) => void>()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: (event: string, listener: (payload: unknown) => void) => {
    listeners.set(event, listener)
    return () => listeners.delete(event)
  },
}))

const playlist = (ids: number[]): CollectionPlaylist => ({
  id: 'p1',
  name: 'Road trip',
  size: ids.length,
  durationMs: ids.length * 185_000,
  createdAt: 1,
  updatedAt: 1,
  songs: ids.map((id) => toCollectionSong(song(id))),
})
const names = (wrapper: { findAll(s: string): Array<{ text(): string }> }) =>
  wrapper.findAll('[data-testid="song-name"]').map((n) => n.text())

async function mountView() {
  const p = plugins()
  p.router.addRoute({ path: '/collection/:id', name: 'collection', component: { template: '<div />' } })
  const wrapper = mount(CollectionView, {
    props: { id: 'p1' },
    attachTo: document.body,
    global: { plugins: [p.pinia, p.i18n, p.router] },
  })
  await flushPromises()
  return { wrapper, router: p.router, pinia: p.pinia }
}

describe('CollectionView', () => {
  beforeEach(() => {
    invoke.mockReset()
    document.body.innerHTML = ''
  })

  it('shows the playlist with its songs, count and total time', async () => {
    invoke.mockImplementation(async (channel: string) =>
      channel === 'collection:get' ? playlist([1, 2, 3]) : channel === 'collection:list' ? [] : undefined,
    )
    const { wrapper } = await mountView()
    expect(wrapper.get('[data-testid="playlist-type"]').text()).toBe('Your playlist')
    expect(names(wrapper)).toEqual(['Song 1', 'Song 2', 'Song 3'])
    expect(wrapper.get('[data-testid="playlist-count"]').text()).toContain('3 songs')
    expect(wrapper.get('[data-testid="playlist-duration"]').text()).toBe('9 min 15 s')
  })

  it('moves a song with Alt+Down at once, and puts it back when main refuses', async () => {
    invoke.mockImplementation(async (channel: string, args: { from: number; to: number }) => {
      if (channel === 'collection:get') return playlist([1, 2, 3])
      if (channel === 'collection:move') {
        expect(args).toEqual({ id: 'p1', from: 0, to: 1 })
        return playlist([2, 1, 3])
      }
      return []
    })
    const { wrapper, pinia } = await mountView()
    await wrapper
      .findAll('[data-testid="song-row"]')[0]
      .trigger('keydown', { key: 'ArrowDown', altKey: true })
    expect(names(wrapper)).toEqual(['Song 2', 'Song 1', 'Song 3'])
    await flushPromises()
    expect(names(wrapper)).toEqual(['Song 2', 'Song 1', 'Song 3'])

    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'collection:move') throw new CadenceError({ kind: 'invalid-argument', message: 'No' })
      return []
    })
    await wrapper.findAll('[data-testid="song-row"]')[2].trigger('keydown', { key: 'ArrowUp', altKey: true })
    await flushPromises()
    expect(names(wrapper)).toEqual(['Song 2', 'Song 1', 'Song 3'])
    expect(storeOf(pinia, useNotificationsStore).items.at(-1)?.message).toBe('Could not move the song: No')
  })

  it('moves a song dropped on another row', async () => {
    invoke.mockImplementation(async (channel: string) =>
      channel === 'collection:get'
        ? playlist([1, 2, 3])
        : channel === 'collection:move'
          ? playlist([2, 3, 1])
          : [],
    )
    const { wrapper } = await mountView()
    const rows = wrapper.findAll('[data-testid="song-row"]')
    expect(rows[0].attributes('draggable')).toBe('true')
    await rows[0].trigger('dragstart')
    await rows[2].trigger('dragover')
    expect(rows[2].classes()).toContain('drop-after')
    await rows[2].trigger('drop')
    expect(invoke).toHaveBeenCalledWith('collection:move', { id: 'p1', from: 0, to: 2 })
    await flushPromises()
    expect(names(wrapper)).toEqual(['Song 2', 'Song 3', 'Song 1'])
  })

  it('removes a song from its menu, renames, and deletes after asking', async () => {
    invoke.mockImplementation(async (channel: string, args: Record<string, unknown>) => {
      if (channel === 'collection:get') return playlist([1, 2])
      if (channel === 'collection:remove') return playlist([2])
      if (channel === 'collection:rename') return { ...playlist([2]), name: args.name }
      return channel === 'collection:list' ? [] : undefined
    })
    const { wrapper, router } = await mountView()
    await wrapper.findAll('[data-testid="song-row"]')[0].trigger('contextmenu')
    document.querySelector<HTMLButtonElement>('[data-menu-item="remove"]')!.click()
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('collection:remove', { id: 'p1', songIds: [1] })
    expect(names(wrapper)).toEqual(['Song 2'])

    await wrapper.get('[data-testid="collection-rename"]').trigger('click')
    const input = document.querySelector<HTMLInputElement>('[data-testid="collection-name-input"]')!
    input.value = 'Long road'
    input.dispatchEvent(new Event('input'))
    await flushPromises()
    document.querySelector<HTMLFormElement>('[data-testid="collection-name-dialog"]')!.requestSubmit()
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('collection:rename', { id: 'p1', name: 'Long road' })

    await wrapper.get('[data-testid="collection-delete"]').trigger('click')
    expect(invoke).not.toHaveBeenCalledWith('collection:delete', expect.anything())
    await wrapper.get('[data-testid="collection-delete-confirm"]').trigger('click')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('collection:delete', { id: 'p1' })
    expect(router.currentRoute.value.path).toBe('/')
  })
})

describe('Add to playlist', () => {
  beforeEach(() => {
    invoke.mockReset()
    document.body.innerHTML = ''
  })

  it('opens from a song menu and adds the song, sent as a plain copy without its media URL', async () => {
    const p = plugins()
    const Host = defineComponent({
      setup() {
        const store = useCollectionStore()
        return () => [
          h(SongContextMenu, {
            song: song(1, { meta: { url: 'http://x/media?sig=s' } }),
            at: { x: 0, y: 0 },
          }),
          store.adding
            ? h(CollectionAddDialog, { songs: store.adding, onClose: () => store.closeAdd() })
            : null,
        ]
      },
    })
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'collection:list')
        return [{ id: 'p1', name: 'Road trip', size: 0, durationMs: 0, createdAt: 1, updatedAt: 1 }]
      if (channel === 'collection:add')
        return {
          added: 1,
          skipped: 0,
          playlist: { id: 'p1', name: 'Road trip', size: 1, durationMs: 1, createdAt: 1, updatedAt: 2 },
        }
      return undefined
    })
    const wrapper = mount(Host, { attachTo: document.body, global: { plugins: [p.pinia, p.i18n, p.router] } })
    document.querySelector<HTMLButtonElement>('[data-menu-item="add-to-playlist"]')!.click()
    await flushPromises()
    const target = document.querySelector<HTMLButtonElement>('[data-testid="collection-add-target"]')!
    expect(target.textContent).toContain('Road trip')
    target.click()
    await flushPromises()
    const [, args] = invoke.mock.calls.find(([c]) => c === 'collection:add')!
    expect(args.songs).toEqual([toCollectionSong(song(1))])
    expect(JSON.stringify(args)).not.toContain('sig=')
    expect(storeOf(p.pinia, useNotificationsStore).items.at(-1)?.message).toBe('Added 1 song to “Road trip”')
    expect(document.querySelector('[data-testid="collection-add-dialog"]')).toBeNull()
    wrapper.unmount()
  })

  it('creates a new playlist with the song in it', async () => {
    const p = plugins()
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'collection:list') return []
      if (channel === 'collection:create')
        return { id: 'p2', name: 'Fresh', size: 1, durationMs: 1, createdAt: 1, updatedAt: 1 }
      return undefined
    })
    const wrapper = mount(CollectionAddDialog, {
      props: { songs: [song(4)] },
      attachTo: document.body,
      global: { plugins: [p.pinia, p.i18n, p.router] },
    })
    await flushPromises()
    expect(document.body.textContent).toContain('You have no playlists yet.')
    const input = document.querySelector<HTMLInputElement>('[data-testid="collection-add-new-name"]')!
    input.value = 'Fresh'
    input.dispatchEvent(new Event('input'))
    await flushPromises()
    document.querySelector<HTMLButtonElement>('[data-testid="collection-add-new"]')!.click()
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('collection:create', {
      name: 'Fresh',
      songs: [toCollectionSong(song(4))],
    })
    expect(wrapper.emitted('close')).toHaveLength(1)
  })

  it('keeps Tab inside the dialog and closes with Escape', async () => {
    const p = plugins()
    invoke.mockImplementation(async (channel: string) =>
      channel === 'collection:list'
        ? [{ id: 'p1', name: 'Road trip', size: 0, durationMs: 0, createdAt: 1, updatedAt: 1 }]
        : undefined,
    )
    const wrapper = mount(CollectionAddDialog, {
      props: { songs: [song(4)] },
      attachTo: document.body,
      global: { plugins: [p.pinia, p.i18n, p.router] },
    })
    await flushPromises()
    const dialog = document.querySelector<HTMLElement>('[data-testid="collection-add-dialog"]')!
    const buttons = [...dialog.querySelectorAll<HTMLButtonElement>('button:not([disabled])')]
    expect(dialog.contains(document.activeElement)).toBe(true)
    buttons.at(-1)!.focus()
    const tab = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true })
    document.activeElement!.dispatchEvent(tab)
    expect(tab.defaultPrevented).toBe(true)
    expect(document.activeElement).toBe(buttons[0])
    const escape = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true })
    document.activeElement!.dispatchEvent(escape)
    expect(escape.defaultPrevented).toBe(true)
    expect(wrapper.emitted('close')).toHaveLength(1)
  })

  it('adds a multi-selection (Ctrl- and Shift-click) from the menu of a selected row', async () => {
    const p = plugins()
    invoke.mockResolvedValue([])
    const list = [song(1), song(2), song(3), song(4)]
    const wrapper = mount(SongList, {
      props: { songs: list, label: 'Songs' },
      attachTo: document.body,
      global: { plugins: [p.pinia, p.i18n, p.router] },
    })
    const rows = () => wrapper.findAll('[data-testid="song-row"]')
    const selected = () => rows().map((r) => r.attributes('aria-selected') === 'true')
    await rows()[0].trigger('click', { ctrlKey: true })
    await rows()[2].trigger('click', { shiftKey: true })
    expect(selected()).toEqual([true, true, true, false])
    await rows()[1].trigger('click', { ctrlKey: true })
    expect(selected()).toEqual([true, false, true, false])

    await rows()[2].trigger('contextmenu')
    const add = document.querySelector<HTMLButtonElement>('[data-menu-item="add-to-playlist"]')!
    expect(add.textContent?.trim()).toBe('Add 2 selected songs to playlist…')
    add.click()
    await flushPromises()
    expect(storeOf(p.pinia, useCollectionStore).adding).toEqual([list[0], list[2]])

    // A row outside the selection adds just itself; a plain click selects its row alone, Escape clears.
    await rows()[3].trigger('contextmenu')
    expect(document.querySelector('[data-menu-item="add-to-playlist"]')!.textContent?.trim()).toBe(
      'Add to playlist…',
    )
    document.querySelector<HTMLButtonElement>('[data-menu-item="add-to-playlist"]')!.click()
    await flushPromises()
    await rows()[3].trigger('click')
    expect(selected()).toEqual([false, false, false, true])
    await rows()[0].trigger('keydown', { key: 'a', ctrlKey: true })
    expect(selected()).toEqual([true, true, true, true])
    await rows()[0].trigger('keydown', { key: 'Escape' })
    expect(selected()).toEqual([false, false, false, false])
    wrapper.unmount()
  })
})
