import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { CadenceError } from '@shared/errors'
import SongRow from '@renderer/components/song/SongRow.vue'
import NotificationToasts from '@renderer/components/notifications/NotificationToasts.vue'
import { usePlayerStore } from '@renderer/stores/player'
import type { Song } from '@shared/api/models'
import { plugins, song } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => {},
}))

function mountRow(s: Song, songs: Song[] = [s], index = 0) {
  const p = plugins()
  const wrapper = mount(
    {
      components: { SongRow, NotificationToasts },
      setup: () => ({ s, songs, index }),
      template: '<div><SongRow :song="s" :songs="songs" :index="index" active /><NotificationToasts /></div>',
    },
    { global: { plugins: [p.pinia, p.i18n, p.router] }, attachTo: document.body },
  )
  return { wrapper, player: usePlayerStore(p.pinia) }
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

  it('plays the list from this row on double-click and on Enter', async () => {
    const list = [song(1), song(2), song(3)]
    const { wrapper, player } = mountRow(list[1], list, 1)
    await wrapper.get('[data-testid="song-row"]').trigger('dblclick')
    expect(player.playSongs).toHaveBeenCalledWith(list, 1)
    await wrapper.get('[data-testid="song-row"]').trigger('keydown', { key: 'Enter' })
    expect(player.playSongs).toHaveBeenCalledTimes(2)
  })

  it('dims an unplayable song and gives its reason on hover', () => {
    const { wrapper } = mountRow(
      song(1, { privilege: { playable: false, reason: 'Region locked', bitrates: [] } }),
    )
    const row = wrapper.get('[data-testid="song-row"]')
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
    const p = plugins()
    const { default: SongList } = await import('@renderer/components/song/SongList.vue')
    const wrapper = mount(SongList, {
      props: { songs: [song(1), song(2)], label: 'list' },
      global: { plugins: [p.pinia, p.i18n, p.router] },
      attachTo: document.body,
    })
    await wrapper.findAll('[data-testid="song-row"]')[1].trigger('keydown', { key: 'ContextMenu' })
    const menu = document.querySelector('[data-testid="context-menu"]')!
    expect([...menu.querySelectorAll('button')].map((b) => b.textContent?.trim())).toEqual([
      'Play next',
      'Add to queue',
      'Go to artist: Artist 2',
      'Go to album: Album 2',
    ])
    menu.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    await flushPromises()
    expect(document.querySelector('[data-testid="context-menu"]')).toBeNull()
    wrapper.unmount()
  })
})
