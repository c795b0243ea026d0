import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import PlaylistView from '@renderer/views/PlaylistView.vue'
import PlaylistCard from '@renderer/components/playlist/PlaylistCard.vue'
import { plugins, song } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => {},
}))

/** Mounts the view for `id` the way the app gets there: from a card the user clicked. */
async function openFromCard(card: { id: number; name?: string; cover?: string }) {
  const p = plugins()
  const cardWrapper = mount(PlaylistCard, {
    props: { playlist: { type: 'normal', ...card } as never },
    global: { plugins: [p.pinia, p.i18n, p.router] },
  })
  await cardWrapper.get('a').trigger('click')
  await flushPromises()
  const view = mount(PlaylistView, {
    props: { id: String(card.id) },
    global: { plugins: [p.pinia, p.i18n, p.router] },
  })
  await flushPromises()
  return view
}

describe('PlaylistView', () => {
  beforeEach(() => invoke.mockReset())

  it("shows the clicked card's name and cover when the detail answer has neither", async () => {
    invoke.mockImplementation(async (channel: string) =>
      channel === 'catalog:playlist' ? { id: 7, type: 'normal', total: 1, rows: [song(1)] } : undefined,
    )
    const view = await openFromCard({ id: 7, name: '每日推荐', cover: 'http://127.0.0.1:1/c.jpg' })
    expect(view.get('[data-testid="playlist-name"]').text()).toBe('每日推荐')
    expect(view.get('header img').attributes('src')).toBe('http://127.0.0.1:1/c.jpg')
  })

  it('prefers the detail answer over the card', async () => {
    invoke.mockResolvedValue({ id: 7, name: 'Full name', type: 'normal', total: 1, rows: [song(1)] })
    const view = await openFromCard({ id: 7, name: 'Card name' })
    expect(view.get('[data-testid="playlist-name"]').text()).toBe('Full name')
  })

  it('recognises the liked playlist by the id a like result named, without meta.kind, and reloads it after an unlike', async () => {
    let liked = [song(1, { meta: { isFavorite: true } }), song(2, { meta: { isFavorite: true } })]
    invoke.mockImplementation(async (channel: string, payload: { id: number; like?: boolean }) => {
      if (channel === 'catalog:playlist')
        return { id: 99, name: 'My likes', type: 'normal', total: liked.length, rows: liked }
      if (channel === 'catalog:like') {
        liked = liked.filter((s) => s.id !== payload.id)
        return { id: payload.id, like: false, playlist: 99 }
      }
      return undefined
    })
    const view = await openFromCard({ id: 99, name: 'My likes' })
    expect(view.findAll('[data-testid="song-row"]')).toHaveLength(2)
    await view.findAll('[data-testid="like-button"]')[0]!.trigger('click')
    await flushPromises()
    expect(view.findAll('[data-testid="song-row"]').map((row) => row.text())).toEqual([
      expect.stringContaining('Song 2'),
    ])
    // The view asked for the list again: the server now holds one song.
    expect(invoke.mock.calls.filter(([channel]) => channel === 'catalog:playlist')).toHaveLength(2)
  })

  it('tells how to like a song when the liked playlist is empty', async () => {
    invoke.mockResolvedValue({
      id: 5,
      name: 'Liked',
      type: 'normal',
      total: 0,
      rows: [],
      meta: { kind: 'liked' },
    })
    const view = await openFromCard({ id: 5 })
    expect(view.get('[data-testid="playlist-empty"]').text()).toContain('No liked songs yet')
  })
})
