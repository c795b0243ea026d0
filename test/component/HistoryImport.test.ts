import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import HistoryView from '@renderer/views/HistoryView.vue'
import { useNotificationsStore } from '@renderer/stores/notifications'
import { CadenceError } from '@shared/errors'
import { HISTORY_IMPORT_MAX_CHARS } from '@shared/ipc/history'
import { plugins } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => {},
}))

/** Recently played's Import: a file too large is refused with a reason before it is read or sent. */

vi.stubGlobal(
  'IntersectionObserver',
  class {
    observe() {}
    unobserve() {}
    disconnect() {}
  },
)

function choose(wrapper: ReturnType<typeof mount>, file: { size: number; text: () => Promise<string> }) {
  const input = wrapper.get('input[type="file"]')
  Object.defineProperty(input.element, 'files', { value: [file], configurable: true })
  return input.trigger('change')
}

describe('Recently played: Import', () => {
  beforeEach(() => {
    invoke.mockReset()
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'history:state') return { count: 0, private: false, waiting: 0 }
      if (channel === 'history:page') return { total: 0, rows: [] }
      if (channel === 'history:import') {
        // As main refuses it (core/history/listenbrainz.ts), rebuilt in the renderer as `invoke` does.
        throw new CadenceError({ kind: 'invalid-argument', message: 'The file is not JSON' })
      }
      return undefined
    })
  })

  it('refuses a file over 64 MiB with the reason, without reading it or sending it to main', async () => {
    const p = plugins()
    const wrapper = mount(HistoryView, { global: { plugins: [p.pinia, p.i18n, p.router] } })
    await flushPromises()
    const text = vi.fn(async () => '')
    await choose(wrapper, { size: HISTORY_IMPORT_MAX_CHARS + 1, text })
    await flushPromises()
    expect(text).not.toHaveBeenCalled()
    expect(invoke).not.toHaveBeenCalledWith('history:import', expect.anything())
    expect(useNotificationsStore(p.pinia).items.map((n) => n.message)).toEqual([
      'The file was not imported: it is larger than 64 MiB, more than any export',
    ])
  })

  it('shows the reason main gives for a malformed file', async () => {
    const p = plugins()
    const wrapper = mount(HistoryView, { global: { plugins: [p.pinia, p.i18n, p.router] } })
    await flushPromises()
    await choose(wrapper, { size: 9, text: async () => 'not json!' })
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('history:import', { text: 'not json!' })
    expect(useNotificationsStore(p.pinia).items.map((n) => n.message)).toEqual([
      'The file was not imported: The file is not JSON',
    ])
  })
})
