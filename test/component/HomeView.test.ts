import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { CadenceError } from '@shared/errors'
import HomeView from '@renderer/views/HomeView.vue'
import { usePlayerStore } from '@renderer/stores/player'
import { plugins } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => {},
}))

function mountHome() {
  const p = plugins()
  return mount(HomeView, { global: { plugins: [p.pinia, p.i18n, p.router] } })
}

describe('HomeView', () => {
  beforeEach(() => invoke.mockReset())

  it('shows the recommended playlists from main', async () => {
    invoke.mockImplementation(async (channel: string) =>
      channel === 'catalog:recommend-playlists'
        ? [
            { id: 1, name: 'Night Drive', type: 'normal', size: 12 },
            { id: 'b', name: '星空', type: 'normal' },
          ]
        : [],
    )
    const wrapper = mountHome()
    expect(wrapper.text()).toContain('Loading')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('catalog:recommend-playlists', { limit: 12 })
    expect(
      wrapper
        .findAll('[data-testid="home-playlists"] [data-testid="playlist-card"]')
        .map((c) => c.find('h3').text()),
    ).toEqual(['Night Drive', '星空'])
  })

  it('shows the error with a Retry that loads again', async () => {
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'catalog:recommend-playlists')
        throw new CadenceError({ kind: 'api', message: 'The server said no' })
      return []
    })
    const wrapper = mountHome()
    await flushPromises()
    const section = wrapper.get('[data-testid="home-playlists"]')
    expect(section.get('[role="alert"]').text()).toContain('The server said no')
    // The other sections are unaffected.
    expect(wrapper.get('[data-testid="home-toplists"]').find('[role="alert"]').exists()).toBe(false)
    invoke.mockImplementation(async () => [{ id: 1, name: 'Back again', type: 'normal' }])
    await section.get('[role="alert"] button').trigger('click')
    await flushPromises()
    expect(wrapper.text()).toContain('Back again')
  })

  it('says so when there are no playlists', async () => {
    invoke.mockResolvedValue([])
    const wrapper = mountHome()
    await flushPromises()
    expect(wrapper.text()).toContain('Nothing here yet')
  })
})

describe('HomeView recommended songs', () => {
  beforeEach(() => invoke.mockReset())

  it('plays them all, or shuffled, leaving out the unplayable ones', async () => {
    const playable = { playable: true, bitrates: [] }
    const songs = [
      { id: 1, name: 'One', tns: [], artists: [], privilege: playable, duration: 3_600_000 },
      {
        id: 2,
        name: 'Locked',
        tns: [],
        artists: [],
        privilege: { playable: false, bitrates: [] },
        duration: 60_000,
      },
      { id: 3, name: 'Three', tns: [], artists: [], privilege: playable, duration: 240_000 },
    ]
    invoke.mockImplementation(async (channel: string) => (channel === 'catalog:recommend-songs' ? songs : []))
    const wrapper = mountHome()
    await flushPromises()
    expect(wrapper.get('[data-testid="home-songs-duration"]').text()).toBe('3 songs · 1 h 5 min')
    const player = usePlayerStore()
    const playSongs = vi.spyOn(player, 'playSongs').mockResolvedValue(undefined as never)
    await wrapper.get('[data-testid="home-songs-play"]').trigger('click')
    expect(playSongs).toHaveBeenLastCalledWith([songs[0], songs[2]], 0)
    expect(player.shuffle).toBe(false)
    await wrapper.get('[data-testid="home-songs-shuffle"]').trigger('click')
    expect(playSongs.mock.calls.at(-1)![0]).toEqual([songs[0], songs[2]])
    expect(player.shuffle).toBe(true)
  })
})
