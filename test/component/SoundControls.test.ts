import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type { Settings } from '@shared/settings'
import type { DeviceInfo } from '@renderer/services/player/audio/device'
import { EQ_PRESETS } from '@renderer/services/player/audio/equaliser'
import SettingsPlayback from '@renderer/components/settings/SettingsPlayback.vue'
import { useSettingsStore } from '@renderer/stores/settings'
import { useNotificationsStore } from '@renderer/stores/notifications'
import { plugins } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => undefined,
}))
const system = { supported: true, infos: [] as DeviceInfo[] }
vi.mock('@renderer/services/player/audio/output-devices', () => ({
  outputDevicesPort: () => ({
    get supported() {
      return system.supported
    },
    list: async () => system.infos,
    onChange: () => () => undefined,
  }),
}))

let settings: Settings
const updates = () =>
  invoke.mock.calls.filter(([channel]) => channel === 'settings:update').map(([, patch]) => patch)

async function mountPlayback() {
  const p = plugins()
  const wrapper = mount(SettingsPlayback, { global: { plugins: [p.pinia, p.i18n, p.router] } })
  await useSettingsStore(p.pinia).load()
  await flushPromises()
  return wrapper
}

enableAutoUnmount(afterEach)

beforeEach(() => {
  system.supported = true
  system.infos = [
    { kind: 'audiooutput', deviceId: 'default', label: 'Default' },
    { kind: 'audiooutput', deviceId: 'speakers', label: 'Speakers' },
    { kind: 'audiooutput', deviceId: 'usb-dac', label: 'USB DAC' },
  ]
  settings = { ...DEFAULT_SETTINGS }
  invoke.mockReset()
  invoke.mockImplementation(async (channel: string, args: never) => {
    if (channel === 'settings:get') return settings
    if (channel === 'settings:update') return (settings = { ...settings, ...(args as Partial<Settings>) })
    return undefined
  })
})

describe('Settings → Playback, the sound controls', () => {
  it('turns the equaliser on and picks a preset, which turns it on with its preamp', async () => {
    const wrapper = await mountPlayback()
    await wrapper.get('[data-testid="sound-eq-enabled"]').setValue(true)
    await flushPromises()
    expect(updates().at(-1)).toEqual({ equaliser: { ...DEFAULT_SETTINGS.equaliser, enabled: true } })
    await wrapper.get('[data-testid="sound-eq-enabled"]').setValue(false)
    await wrapper.get('[data-testid="sound-eq-preset"]').setValue('rock')
    await flushPromises()
    expect(updates().at(-1)).toEqual({
      equaliser: { enabled: true, preset: 'rock', gains: [...EQ_PRESETS.rock], preamp: -4 },
    })
    expect((wrapper.get('[data-testid="sound-eq-preset"]').element as HTMLSelectElement).value).toBe('rock')
  })

  it('moves a band (custom from then on), the preamp, and resets to flat', async () => {
    settings = {
      ...settings,
      equaliser: { enabled: true, preset: 'bass', gains: [...EQ_PRESETS.bass], preamp: -6 },
    }
    const wrapper = await mountPlayback()
    const band = wrapper.get('[data-testid="sound-eq-band-3"]')
    expect(band.attributes('aria-label')).toBe('250 Hz')
    await band.setValue('-4.5')
    await band.trigger('change')
    await flushPromises()
    expect(updates().at(-1)).toEqual({
      equaliser: { enabled: true, preset: 'custom', gains: [6, 5, 4, -4.5, 0, 0, 0, 0, 0, 0], preamp: -6 },
    })
    expect(wrapper.get('[data-testid="sound-eq-bands"]').text()).toContain('−4.5 dB')
    expect(wrapper.get('[data-testid="sound-eq-bands"]').text()).toContain('16 kHz')
    const preamp = wrapper.get('[data-testid="sound-eq-preamp"]')
    await preamp.setValue('-8')
    await preamp.trigger('change')
    await flushPromises()
    expect((updates().at(-1) as Settings).equaliser.preamp).toBe(-8)
    await wrapper.get('[data-testid="sound-eq-reset"]').trigger('click')
    await flushPromises()
    expect(updates().at(-1)).toEqual({
      equaliser: { enabled: true, preset: 'flat', gains: Array(10).fill(0), preamp: 0 },
    })
  })

  it('sets the speed and the crossfade, shown as 1.25× and Off / 5 s', async () => {
    const wrapper = await mountPlayback()
    const row = (testid: string) => wrapper.get(`[data-testid="${testid}"]`).element.closest('label')!
    expect(row('sound-speed').textContent).toContain('1×')
    expect(row('sound-crossfade').textContent).toContain('Off')
    const speed = wrapper.get('[data-testid="sound-speed"]')
    expect(speed.attributes()).toMatchObject({ min: '0.5', max: '2', step: '0.05' })
    await speed.setValue('1.25')
    await speed.trigger('change')
    await flushPromises()
    expect(updates().at(-1)).toEqual({ speed: 1.25 })
    expect(row('sound-speed').textContent).toContain('1.25×')
    const crossfade = wrapper.get('[data-testid="sound-crossfade"]')
    await crossfade.setValue('5')
    await crossfade.trigger('change')
    await flushPromises()
    expect(updates().at(-1)).toEqual({ crossfadeSeconds: 5 })
    expect(row('sound-crossfade').textContent).toContain('5 s')
  })

  it('lists the output devices with the system default first, and a remembered one that is unplugged', async () => {
    settings = { ...settings, outputDevice: { id: 'old-dac', label: 'Old DAC' } }
    const wrapper = await mountPlayback()
    const select = wrapper.get('[data-testid="sound-device"]')
    expect(select.findAll('option').map((o) => o.text())).toEqual([
      'System default',
      'Speakers',
      'USB DAC',
      'Old DAC (not connected)',
    ])
    expect((select.element as HTMLSelectElement).value).toBe('old-dac')
    await select.setValue('usb-dac')
    await flushPromises()
    expect(updates().at(-1)).toEqual({ outputDevice: { id: 'usb-dac', label: 'USB DAC' } })
    await select.setValue('')
    await flushPromises()
    expect(updates().at(-1)).toEqual({ outputDevice: { id: '', label: '' } })
  })

  it('says the device choice is not available where it is not, and offers only the default', async () => {
    system.supported = false
    const wrapper = await mountPlayback()
    const select = wrapper.get('[data-testid="sound-device"]')
    expect(select.attributes('disabled')).toBeDefined()
    expect(select.findAll('option').map((o) => o.text())).toEqual(['System default'])
    expect(wrapper.get('[data-testid="sound-device-hint"]').text()).toContain('not available here')
  })

  it('rolls a refused change back and says why', async () => {
    const wrapper = await mountPlayback()
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'settings:update') throw new Error('refused')
      return settings
    })
    const speed = wrapper.get('[data-testid="sound-speed"]')
    await speed.setValue('1.5')
    await speed.trigger('change')
    await flushPromises()
    expect(wrapper.get('[data-testid="sound-speed"]').element.closest('label')!.textContent).toContain('1×')
    expect(useNotificationsStore().items.map((n) => n.message)).toEqual([
      expect.stringMatching(/^The setting was not saved: /),
    ])
  })
})
