import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import SettingsPreferences from '@renderer/components/settings/SettingsPreferences.vue'
import { useSettingsStore } from '@renderer/stores/settings'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type { UpdateState } from '@shared/ipc/contract'
import { plugins } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => {},
}))

let state: UpdateState
let answerCheck: (() => void) | undefined

describe('Settings → Updates', () => {
  beforeEach(() => {
    state = { status: 'idle', checkedAt: null, nextCheckAt: null }
    invoke.mockReset()
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'settings:get') return DEFAULT_SETTINGS
      if (channel === 'app:info') return { name: 'Cadence', version: '1.4.2', platform: 'linux' }
      if (channel === 'updates:state') return state
      if (channel === 'updates:check') {
        await new Promise<void>((resolve) => (answerCheck = resolve))
        return (state = {
          status: 'ready',
          version: '1.5.0',
          checkedAt: Date.UTC(2026, 0, 2, 9, 30),
          nextCheckAt: null,
        })
      }
      return undefined
    })
  })

  it('shows the version, and checks now on request (saying so meanwhile) with what it found', async () => {
    const p = plugins()
    const wrapper = mount(SettingsPreferences, { global: { plugins: [p.pinia, p.i18n, p.router] } })
    await useSettingsStore(p.pinia).load()
    await flushPromises()
    expect(wrapper.get('[data-testid="settings-version"]').text()).toBe('Version 1.4.2')
    expect(wrapper.get('[data-testid="settings-update-status"]').text()).toBe('Not checked yet')

    const button = wrapper.get('[data-testid="settings-check-updates"]')
    expect(button.text()).toBe('Check now')
    await button.trigger('click')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('updates:check')
    expect(button.text()).toBe('Checking…')
    expect(button.attributes('disabled')).toBeDefined()
    answerCheck!()
    await flushPromises()
    expect(button.text()).toBe('Check now')
    expect(wrapper.get('[data-testid="settings-update-status"]').text()).toBe(
      'Version 1.5.0 is ready: restart Cadence to update.',
    )
  })
})
