import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type { Settings } from '@shared/settings'
import SettingsPlayback from '@renderer/components/settings/SettingsPlayback.vue'
import { useSettingsStore } from '@renderer/stores/settings'
import { plugins } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => undefined,
}))

let settings: Settings
enableAutoUnmount(afterEach)
beforeEach(() => {
  invoke.mockReset()
  invoke.mockImplementation(async (channel: string) => (channel === 'settings:get' ? settings : undefined))
})

async function mountPlayback() {
  const p = plugins()
  const wrapper = mount(SettingsPlayback, { global: { plugins: [p.pinia, p.i18n, p.router] } })
  await useSettingsStore(p.pinia).load()
  await flushPromises()
  return wrapper
}

/** Where a band's fill runs (from 0 dB to its value), as its style says. */
const fillOf = (el: Element) => {
  const style = (el as HTMLElement).style
  return [style.getPropertyValue('--lo'), style.getPropertyValue('--hi')]
}

describe('the equaliser as it looks', () => {
  it('fills each band from 0 dB to its value: nothing at 0 dB, up for a boost, down for a cut', async () => {
    const gains = [0, 6, -12, 12, 0, 0, 0, 0, 0, -3]
    settings = { ...DEFAULT_SETTINGS, equaliser: { enabled: true, preset: 'custom', gains, preamp: 0 } }
    const wrapper = await mountPlayback()
    const band = (i: number) => wrapper.get(`[data-testid="sound-eq-band-${i}"]`).element
    expect(fillOf(band(0))).toEqual(['50%', '50%'])
    expect(fillOf(band(1))).toEqual(['50%', '75%'])
    expect(fillOf(band(2))).toEqual(['0%', '50%'])
    expect(fillOf(band(3))).toEqual(['50%', '100%'])
    expect(fillOf(band(9))).toEqual(['37.5%', '50%'])
    expect((wrapper.get('[data-testid="sound-eq-preamp"]').element as HTMLInputElement).disabled).toBe(false)
  })

  it('greys out the preamp with the bands while the equaliser is off', async () => {
    settings = {
      ...DEFAULT_SETTINGS,
      equaliser: { ...DEFAULT_SETTINGS.equaliser, enabled: false, preamp: 3 },
    }
    const wrapper = await mountPlayback()
    expect((wrapper.get('[data-testid="sound-eq-band-0"]').element as HTMLInputElement).disabled).toBe(true)
    expect((wrapper.get('[data-testid="sound-eq-preamp"]').element as HTMLInputElement).disabled).toBe(true)
  })
})
