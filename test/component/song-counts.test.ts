import { describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import SongList from '@renderer/components/song/SongList.vue'
import { plugins, song } from './support'

vi.mock('@renderer/services/cadence', () => ({ invoke: vi.fn().mockResolvedValue([]), on: () => () => {} }))

/** A list of `songs`, with rows `from`..`to` (1-based) selected by a click and a Shift-click. */
async function selectRange(songs: ReturnType<typeof song>[], from: number, to: number) {
  const p = plugins()
  const wrapper = mount(SongList, {
    props: { songs, label: 'Songs' },
    global: { plugins: [p.pinia, p.i18n, p.router] },
    attachTo: document.body,
  })
  const rows = () => wrapper.findAll('[data-testid="song-row"]')
  await rows()[from - 1].trigger('click')
  await rows()[to - 1].trigger('click', { shiftKey: true })
  return { wrapper, rows }
}
function menuItems() {
  return [...document.querySelectorAll<HTMLElement>('[data-menu-item]')].map((i) => ({
    id: i.dataset.menuItem!,
    label: i.textContent!.trim(),
  }))
}

describe('Counts in the song menu', () => {
  it('offers for 25 selected songs only what acts on all of them, each with the count', async () => {
    const songs = Array.from({ length: 30 }, (_, i) => song(i + 1))
    const { wrapper, rows } = await selectRange(songs, 1, 25)
    await rows()[2].trigger('contextmenu')
    await flushPromises()
    expect(menuItems()).toEqual([
      { id: 'play-next', label: 'Play 25 songs next' },
      { id: 'add-to-queue', label: 'Add 25 songs to the queue' },
      { id: 'like', label: 'Like 25 songs' },
      { id: 'add-to-playlist', label: 'Add 25 selected songs to playlist…' },
      { id: 'download', label: 'Download 25 songs' },
    ])
    wrapper.unmount()
  })

  it('says "1 song", not "1 songs", when one of two selected songs can play', async () => {
    const songs = [song(1), song(2, { privilege: { playable: false, bitrates: [] } }), song(3)]
    const { wrapper, rows } = await selectRange(songs, 1, 2)
    await rows()[0].trigger('contextmenu')
    await flushPromises()
    const labels = Object.fromEntries(menuItems().map((i) => [i.id, i.label]))
    expect(labels['play-next']).toBe('Play 1 song next')
    expect(labels['add-to-queue']).toBe('Add 1 song to the queue')
    expect(labels['download']).toBe('Download 1 song')
    wrapper.unmount()
  })
})
