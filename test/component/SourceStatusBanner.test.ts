import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import type { SourceList } from '@shared/ipc/contract'
import SourceStatusBanner from '@renderer/components/sources/SourceStatusBanner.vue'
import { plugins } from './support'

const invoke = vi.fn()
const listeners = new Map<string, (payload: unknown) => void>()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: (event: string, listener: (payload: unknown) => void) => (listeners.set(event, listener), () => {}),
}))

const list = (state: 'starting' | 'ready' | 'reconnecting' | 'failed', activeId = 'builtin'): SourceList => ({
  activeId,
  sources: [
    { id: 'builtin', name: 'Built-in', url: 'http://127.0.0.1:1', builtin: true, insecure: false, state },
    { id: 'lan', name: 'NAS', url: 'http://192.168.1.2:4000', builtin: false, insecure: true },
  ],
})

function mountBanner() {
  const { pinia, i18n } = plugins()
  return mount(SourceStatusBanner, { global: { plugins: [pinia, i18n] } })
}

describe('SourceStatusBanner', () => {
  beforeEach(() => {
    invoke.mockReset()
    listeners.clear()
  })

  it('says the built-in library is restarting, and goes away when it is back', async () => {
    invoke.mockResolvedValue(list('reconnecting'))
    const wrapper = mountBanner()
    await flushPromises()
    expect(wrapper.get('[data-testid="source-status"]').text()).toContain('Restarting')
    listeners.get('sources:changed')!(list('ready'))
    await flushPromises()
    expect(wrapper.find('[data-testid="source-status"]').exists()).toBe(false)
  })

  it('raises an alert when the built-in library gave up', async () => {
    invoke.mockResolvedValue(list('failed'))
    const wrapper = mountBanner()
    await flushPromises()
    expect(wrapper.get('[role="alert"]').text()).toContain('could not be restarted')
  })

  it('stays hidden while another data source is active', async () => {
    invoke.mockResolvedValue(list('failed', 'lan'))
    const wrapper = mountBanner()
    await flushPromises()
    expect(wrapper.find('[data-testid="source-status"]').exists()).toBe(false)
  })
})
