import { describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import SongList from '@renderer/components/song/SongList.vue'
import { plugins, song } from './support'

vi.mock('@renderer/services/cadence', () => ({ invoke: vi.fn(), on: () => () => {} }))

function mountList(count: number) {
  const p = plugins()
  const songs = Array.from({ length: count }, (_, i) => song(i + 1))
  return mount(SongList, {
    props: { songs, label: 'Big playlist' },
    global: { plugins: [p.pinia, p.i18n, p.router] },
    attachTo: document.body,
  })
}

describe('SongList', () => {
  it('keeps at most ~100 rows in the DOM for 10,000 songs', async () => {
    // happy-dom has no layout: give every element a window-sized box.
    const height = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(700)
    const width = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1000)
    const wrapper = mountList(10_000)
    await flushPromises()
    const rows = wrapper.findAll('[data-testid="song-row"]')
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.length).toBeLessThanOrEqual(100)
    expect(wrapper.get('[role="grid"]').attributes('aria-rowcount')).toBe('10000')
    wrapper.unmount()
    height.mockRestore()
    width.mockRestore()
  })

  it('renders every row of a short list', () => {
    const wrapper = mountList(12)
    expect(wrapper.findAll('[data-testid="song-row"]')).toHaveLength(12)
    wrapper.unmount()
  })

  it('moves focus between rows with the arrow keys', async () => {
    const wrapper = mountList(5)
    const rows = wrapper.findAll('[data-testid="song-row"]')
    ;(rows[0].element as HTMLElement).focus()
    await rows[0].trigger('keydown', { key: 'ArrowDown' })
    await flushPromises()
    expect(document.activeElement).toBe(rows[1].element)
    await rows[1].trigger('keydown', { key: 'End' })
    await flushPromises()
    expect(document.activeElement).toBe(rows[4].element)
    expect(rows[4].attributes('tabindex')).toBe('0')
    wrapper.unmount()
  })
})
