import { describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import SongList from '@renderer/components/song/SongList.vue'
import { plugins, song } from './support'

vi.mock('@renderer/services/cadence', () => ({ invoke: vi.fn().mockResolvedValue([]), on: () => () => {} }))

function mountList(count: number) {
  const p = plugins()
  const songs = Array.from({ length: count }, (_, i) => song(i + 1))
  const wrapper = mount(SongList, {
    props: { songs, label: 'Songs' },
    global: { plugins: [p.pinia, p.i18n, p.router] },
    attachTo: document.body,
  })
  const rows = () => wrapper.findAll('[data-testid="song-row"]')
  /** Row numbers as a person counts them (1 is the first row). */
  const selected = () =>
    rows()
      .map((r, i) => (r.attributes('aria-selected') === 'true' ? i + 1 : 0))
      .filter((n) => n > 0)
  const click = (n: number, mods: { ctrlKey?: boolean; shiftKey?: boolean; metaKey?: boolean } = {}) =>
    rows()[n - 1].trigger('click', mods)
  /** The menu of row `n`, as a right-click opens it: its items' texts. */
  async function menuOf(n: number) {
    await rows()[n - 1].trigger('contextmenu')
    await flushPromises()
    const items = [...document.querySelectorAll<HTMLElement>('[data-menu-item]')]
    const texts = Object.fromEntries(items.map((i) => [i.dataset.menuItem!, i.textContent!.trim()]))
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    await flushPromises()
    return texts
  }
  return { wrapper, rows, selected, click, menuOf }
}

describe('SongList selection (as in file managers)', () => {
  it('selects anchor..row on Shift-click after a plain click, not from the top', async () => {
    const { wrapper, selected, click, menuOf } = mountList(14)
    await click(6)
    expect(selected()).toEqual([6])
    await click(8, { shiftKey: true })
    expect(selected()).toEqual([6, 7, 8])
    expect((await menuOf(7))['add-to-playlist']).toBe('Add 3 selected songs to playlist…')
    wrapper.unmount()
  })

  it('Ctrl-click adds one row and moves the anchor; Shift-click then replaces only its own range', async () => {
    // The rule followed: a Shift-click selects anchor..row on top of what was selected before it (rows
    // added with Ctrl stay), and replaces the range of the Shift-click before it.
    const { wrapper, selected, click, menuOf } = mountList(14)
    await click(6)
    await click(8, { shiftKey: true })
    await click(10, { ctrlKey: true })
    expect(selected()).toEqual([6, 7, 8, 10])
    await click(12, { shiftKey: true })
    expect(selected()).toEqual([6, 7, 8, 10, 11, 12])
    await click(11, { shiftKey: true })
    expect(selected()).toEqual([6, 7, 8, 10, 11])
    expect((await menuOf(11))['add-to-playlist']).toBe('Add 5 selected songs to playlist…')
    // Ctrl-click on a selected row takes it out; a plain click selects that row alone.
    await click(7, { metaKey: true })
    expect(selected()).toEqual([6, 8, 10, 11])
    await click(3)
    expect(selected()).toEqual([3])
    wrapper.unmount()
  })

  it('Ctrl+Shift-click adds a range to the selection', async () => {
    const { wrapper, selected, click } = mountList(14)
    await click(2)
    await click(3, { shiftKey: true })
    await click(9, { ctrlKey: true })
    await click(11, { ctrlKey: true, shiftKey: true })
    expect(selected()).toEqual([2, 3, 9, 10, 11])
    wrapper.unmount()
  })

  it('Shift+↓ and Shift+↑ extend the selection from the anchor', async () => {
    const { wrapper, rows, selected, click } = mountList(10)
    await click(4)
    ;(rows()[3].element as HTMLElement).focus()
    await rows()[3].trigger('keydown', { key: 'ArrowDown', shiftKey: true })
    await flushPromises()
    await rows()[4].trigger('keydown', { key: 'ArrowDown', shiftKey: true })
    await flushPromises()
    expect(selected()).toEqual([4, 5, 6])
    expect(document.activeElement).toBe(rows()[5].element)
    await rows()[5].trigger('keydown', { key: 'ArrowUp', shiftKey: true })
    await flushPromises()
    expect(selected()).toEqual([4, 5])
    wrapper.unmount()
  })
})
