import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import ArtistView from '@renderer/views/ArtistView.vue'
import { plugins, song } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => {},
}))

const artist = (meta?: Record<string, unknown>) => ({
  id: 7,
  name: 'Lumen',
  type: 'artist',
  songs: [song(1), song(2)],
  meta,
})

async function mountArtist() {
  const p = plugins()
  const wrapper = mount(ArtistView, { props: { id: '7' }, global: { plugins: [p.pinia, p.i18n, p.router] } })
  await flushPromises()
  return { wrapper, router: p.router }
}
const cards = (wrapper: Awaited<ReturnType<typeof mountArtist>>['wrapper']) =>
  wrapper.findAll('[data-testid="album-card"]').map((c) => c.find('h3').text())

describe('ArtistView', () => {
  beforeEach(() => invoke.mockReset())

  it('shows the hot songs, then the albums the data source sent in meta.albums', async () => {
    invoke.mockImplementation(async (channel: string) =>
      channel === 'catalog:artist'
        ? artist({
            albums: [
              { id: 40, name: 'Glass Hours', artists: [], size: 8 },
              { id: 41, name: 'Tidal', artists: [], size: 10 },
            ],
          })
        : undefined,
    )
    const { wrapper } = await mountArtist()
    expect(wrapper.findAll('[data-testid="song-row"]')).toHaveLength(2)
    expect(cards(wrapper)).toEqual(['Glass Hours', 'Tidal'])
    expect(wrapper.get('[data-testid="album-card"]').text()).toContain('8 songs')
    expect(wrapper.get('[data-testid="album-card"]').attributes('href')).toBe(
      '/album/40?name=Glass+Hours&artist=Lumen',
    )
    expect(wrapper.find('[data-testid="albums-by-search"]').exists()).toBe(false)
    expect(invoke).not.toHaveBeenCalledWith('catalog:search', expect.anything())
  })

  it("finds the artist's albums by search when the data source sends none, and says so", async () => {
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'catalog:artist') return artist()
      if (channel === 'catalog:search')
        return {
          albums: [
            { id: 40, name: 'Glass Hours', artists: [{ id: 7, name: 'Lumen' }] },
            { id: 90, name: 'Lumen Tribute', artists: [{ id: 8, name: 'Someone else' }] },
          ],
          songs: [
            song(5, { artists: [{ id: 7, name: 'Lumen' }], album: { id: 41, name: 'Tidal', artists: [] } }),
            song(6, {
              artists: [{ id: 7, name: 'Lumen' }],
              album: { id: 40, name: 'Glass Hours', artists: [] },
            }),
          ],
          artists: [],
          playlists: [],
        }
      return undefined
    })
    const { wrapper } = await mountArtist()
    expect(invoke).toHaveBeenCalledWith('catalog:search', { keywords: 'Lumen', limit: 100 })
    expect(cards(wrapper)).toEqual(['Glass Hours', 'Tidal'])
    expect(wrapper.get('[data-testid="albums-by-search"]').text()).toBe('Found by search')
  })

  it('says when no albums were found', async () => {
    invoke.mockImplementation(async (channel: string) =>
      channel === 'catalog:artist' ? artist({ albums: [] }) : undefined,
    )
    const { wrapper } = await mountArtist()
    expect(wrapper.get('[data-testid="artist-albums"]').text()).toContain(
      'No albums from this artist were found.',
    )
  })
})
