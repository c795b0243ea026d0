import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createTestingPinia } from '@pinia/testing'
import { CadenceError } from '@shared/errors'
import HomeView from '@renderer/views/HomeView.vue'
import { createAppI18n } from '@renderer/i18n'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({ invoke: (...args: unknown[]) => invoke(...args) }))

function mountHome() {
  return mount(HomeView, {
    global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false }), createAppI18n()] },
  })
}

describe('HomeView', () => {
  beforeEach(() => invoke.mockReset())

  it('shows the recommended playlists from main', async () => {
    invoke.mockResolvedValue([
      { id: 1, name: 'Night Drive', type: 'normal', size: 12 },
      { id: 'b', name: '星空', type: 'normal' },
    ])
    const wrapper = mountHome()
    expect(wrapper.text()).toContain('Loading')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('catalog:recommend-playlists', { limit: 12 })
    expect(wrapper.findAll('[data-testid="playlist-card"]').map((c) => c.find('h3').text())).toEqual([
      'Night Drive',
      '星空',
    ])
  })

  it('shows the error with a Retry that loads again', async () => {
    invoke.mockRejectedValueOnce(
      new CadenceError({ kind: 'network', message: 'Cannot reach the data source' }),
    )
    const wrapper = mountHome()
    await flushPromises()
    expect(wrapper.get('[role="alert"]').text()).toContain('Cannot reach the data source')
    invoke.mockResolvedValueOnce([{ id: 1, name: 'Back again', type: 'normal' }])
    await wrapper.get('[role="alert"] button').trigger('click')
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
