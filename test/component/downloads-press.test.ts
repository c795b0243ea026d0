import { describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import DownloadsList from '@renderer/components/downloads/DownloadsList.vue'
import type { DownloadRow } from '@shared/ipc/offline'
import { plugins, song } from './support'

vi.mock('@renderer/services/cadence', () => ({ invoke: vi.fn().mockResolvedValue([]), on: () => () => {} }))

/**
 * A downloaded song's row prepares its play on its first press or a kept keyboard focus (`press`), as a
 * song list's rows do; a row not downloaded yet, or a press on its buttons, prepares nothing.
 */
const row = (id: number, state: DownloadRow['state']): DownloadRow =>
  ({ song: song(id), sourceId: 'builtin', bitrate: 320000, state, addedAt: 0 }) as unknown as DownloadRow

describe('Downloads rows pressed ahead of their play', () => {
  it('a done row pressed or focused asks to prepare it; a queued row, or a button, does not', async () => {
    const height = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(700)
    const width = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1000)
    const p = plugins()
    const wrapper = mount(DownloadsList, {
      props: { rows: [row(1, 'done'), row(2, 'queued'), row(3, 'done')] },
      global: { plugins: [p.pinia, p.i18n, p.router] },
      attachTo: document.body,
    })
    await flushPromises()
    const rows = () => wrapper.findAll('[data-testid="download-row"]')
    expect(rows().length).toBe(3)
    await rows()[0].find('[data-testid="download-name"]').trigger('pointerdown', { button: 0 })
    await rows()[1].find('[data-testid="download-name"]').trigger('pointerdown', { button: 0 })
    await rows()[0].find('button').trigger('pointerdown', { button: 0 })
    expect(wrapper.emitted('press')).toEqual([[0]])
    vi.useFakeTimers()
    await rows()[2].trigger('focusin')
    vi.advanceTimersByTime(200)
    expect(wrapper.emitted('press')).toEqual([[0], [2]])
    vi.useRealTimers()
    wrapper.unmount()
    height.mockRestore()
    width.mockRestore()
  })
})
