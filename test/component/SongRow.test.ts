import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { CadenceError } from '@shared/errors'
import SongList from '@renderer/components/song/SongList.vue'
import NotificationToasts from '@renderer/components/notifications/NotificationToasts.vue'
import { usePlayerStore } from '@renderer/stores/player'
import type { Song } from '@shared/api/models'
import { plugins, song } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => {},
}))

/** Rows live in a list, which handles their clicks and keys: mount one the way the app shows it. */
function mountRow(s: Song, songs: Song[] = [s]) {
  const p = plugins()
  const wrapper = mount(
    {
      components: { SongList, NotificationToasts },
      setup: () => ({ songs }),
      template: '<div><SongList :songs="songs" label="list" /><NotificationToasts /></div>',
    },
    { global: { plugins: [p.pinia, p.i18n, p.router] }, attachTo: document.body },
  )
  const row = wrapper.findAll('[data-testid="song-row"]').find((r) => r.text().includes(s.name))!
  return { wrapper, row, player: usePlayerStore(p.pinia), router: p.router }
}

describe('SongRow', () => {
  beforeEach(() => {
    invoke.mockReset()
    invoke.mockResolvedValue({ id: 1, meta: {} })
    document.body.innerHTML = ''
  })

  it('shows name with aliases, artists as links, album and duration', () => {
    const { wrapper } = mountRow(
      song(1, { name: '海风', tns: ['Sea Breeze'], artists: [{ id: 7, name: '周思远' }], duration: 61_000 }),
    )
    expect(wrapper.text()).toContain('海风 (Sea Breeze)')
    expect(wrapper.get('a').attributes('href')).toBe('/artist/7')
    expect(wrapper.text()).toContain('Album 1')
    expect(wrapper.text()).toContain('1:01')
  })

  it("shows the album's small cover, only when it is an http(s) image", () => {
    const withCover = song(3, {
      album: { id: 9, name: 'A', artists: [], cover: 'http://127.0.0.1:4000/cover/9.svg' },
    })
    const thumb = mountRow(withCover).row.get('[data-testid="song-thumb"]')
    expect(thumb.attributes()).toMatchObject({
      src: 'http://127.0.0.1:4000/cover/9.svg',
      loading: 'lazy',
      alt: '',
    })
    const script = song(4, { album: { id: 9, name: 'A', artists: [], cover: 'javascript:alert(1)' } })
    expect(mountRow(script).row.find('[data-testid="song-thumb"]').exists()).toBe(false)
    expect(mountRow(song(5)).row.find('[data-testid="song-thumb"]').exists()).toBe(false)
    // A long (virtualised) list shows none: covers decoding as rows scroll by cost frames.
    const long = [withCover, ...Array.from({ length: 80 }, (_, i) => song(100 + i))]
    const { wrapper } = mountRow(withCover, long)
    expect(wrapper.findAll('[data-testid="song-row"]').length).toBeGreaterThan(0)
    expect(wrapper.find('[data-testid="song-thumb"]').exists()).toBe(false)
  })

  it('follows an artist link inside the app', async () => {
    const { row, router } = mountRow(song(1, { artists: [{ id: 7, name: '周思远' }] }))
    await row.get('a').trigger('click', { button: 0 })
    await flushPromises()
    expect(router.currentRoute.value.fullPath).toBe('/artist/7')
  })

  it('plays the list from this row on double-click and on Enter', async () => {
    const list = [song(1), song(2), song(3)]
    const { row, player } = mountRow(list[1], list)
    await row.trigger('dblclick')
    expect(player.playSongs).toHaveBeenCalledWith(list, 1)
    await row.trigger('keydown', { key: 'Enter' })
    expect(player.playSongs).toHaveBeenCalledTimes(2)
    expect(player.playSongs).toHaveBeenLastCalledWith(list, 1)
    // The heart, the ⋯ button and artist links are not "play this".
    await row.get('[data-testid="like-button"]').trigger('dblclick')
    await row.get('a').trigger('dblclick')
    expect(player.playSongs).toHaveBeenCalledTimes(2)
  })

  it('dims an unplayable song and gives its reason on hover', () => {
    const { row } = mountRow(
      song(1, { privilege: { playable: false, reason: 'Region locked', bitrates: [] } }),
    )
    expect(row.classes()).toContain('unplayable')
    expect(row.attributes('title')).toBe('Region locked')
    expect(row.attributes('aria-disabled')).toBe('true')
  })

  it('likes at once and keeps it when the data source agrees', async () => {
    invoke.mockResolvedValue({ id: 1, like: true, playlist: 99 })
    const { wrapper } = mountRow(song(1))
    const heart = wrapper.get('[data-testid="like-button"]')
    expect(heart.attributes('aria-pressed')).toBe('false')
    await heart.trigger('click')
    expect(heart.attributes('aria-pressed')).toBe('true')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('catalog:like', { id: 1, like: true })
    expect(heart.attributes('aria-pressed')).toBe('true')
  })

  it('rolls a refused like back and says so', async () => {
    let refuse!: (e: unknown) => void
    invoke.mockReturnValue(new Promise((_, reject) => (refuse = reject)))
    const { wrapper } = mountRow(song(1, { meta: { isFavorite: true } }))
    const heart = wrapper.get('[data-testid="like-button"]')
    expect(heart.attributes('aria-pressed')).toBe('true')
    await heart.trigger('click')
    expect(heart.attributes('aria-pressed')).toBe('false')
    refuse(new CadenceError({ kind: 'api', message: 'no' }))
    await flushPromises()
    expect(heart.attributes('aria-pressed')).toBe('true')
    expect(wrapper.get('[data-testid="toast"]').text()).toContain('Could not unlike “Song 1”')
  })

  it('opens its menu from the keyboard and closes it with Escape', async () => {
    const list = [song(1), song(2)]
    const { wrapper, row } = mountRow(list[1], list)
    await row.trigger('keydown', { key: 'ContextMenu' })
    const menu = document.querySelector('[data-testid="context-menu"]')!
    expect([...menu.querySelectorAll('button')].map((b) => b.textContent?.trim())).toEqual([
      'Play next',
      'Add to queue',
      'Like',
      'Add to playlist…',
      'Download',
      'Go to artist: Artist 2',
      'Go to album: Album 2',
      'Copy link',
    ])
    menu.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    await flushPromises()
    expect(document.querySelector('[data-testid="context-menu"]')).toBeNull()
    wrapper.unmount()
  })

  it('opens its menu from Shift+F10, a right-click and the ⋯ button', async () => {
    const list = [song(1), song(2)]
    const { wrapper, row } = mountRow(list[0], list)
    const menuTitle = () => document.querySelector('[data-testid="context-menu"]')?.getAttribute('aria-label')
    const close = async () => {
      document
        .querySelector('[data-testid="context-menu"]')!
        .dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
      await flushPromises()
    }
    await row.trigger('keydown', { key: 'F10', shiftKey: true })
    expect(menuTitle()).toContain('Song 1')
    await close()
    await row.trigger('contextmenu', { clientX: 10, clientY: 10 })
    expect(menuTitle()).toContain('Song 1')
    await close()
    await row.get('[data-testid="song-more"]').trigger('click')
    expect(menuTitle()).toContain('Song 1')
    wrapper.unmount()
  })
})
