import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type { Settings } from '@shared/settings'
import { choosePreset } from '@renderer/services/player/audio/equaliser'
import type { DeviceInfo } from '@renderer/services/player/audio/device'
import type { SinkResult } from '@renderer/services/player/audio/sink'
import { usePlayerStore } from '@renderer/stores/player'
import { useOutputDeviceStore } from '@renderer/stores/output-device'
import { useSettingsStore } from '@renderer/stores/settings'
import { FakeAudio, resolved, song } from './player-fakes'

/** The player's output with the sound controls, recording what it was told. */
class FakeSoundAudio extends FakeAudio {
  equalisers: unknown[] = []
  sinks: string[] = []
  accepts = new Set<string>([''])
  setEqualiser = (settings: unknown) => void this.equalisers.push(settings)
  setSink = async (id: string): Promise<SinkResult> => {
    this.sinks.push(id)
    return this.accepts.has(id) ? 'done' : 'refused'
  }
}
const outputs: FakeSoundAudio[] = []
const made: unknown[] = []

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => undefined,
}))
vi.mock('@renderer/services/player/engine', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@renderer/services/player/engine')>()),
  createPlayerOutput: (options: unknown) => {
    made.push(options)
    const audio = new FakeSoundAudio()
    outputs.push(audio)
    return audio
  },
}))

/** The system's devices, changed by the test as a person plugs and unplugs them. */
const system = {
  supported: true,
  infos: [] as DeviceInfo[],
  change: () => undefined as void,
  /** When set, the next list waits for it (an answer that arrives late). */
  hold: undefined as Promise<void> | undefined,
}
vi.mock('@renderer/services/player/audio/output-devices', () => ({
  outputDevicesPort: () => ({
    get supported() {
      return system.supported
    },
    list: async () => {
      const infos = system.infos
      const hold = system.hold
      system.hold = undefined
      if (hold) await hold
      return infos
    },
    onChange: (listener: () => void) => {
      system.change = listener
      return () => undefined
    },
  }),
}))

const usb: DeviceInfo = { kind: 'audiooutput', deviceId: 'usb-dac', label: 'USB DAC' }
const speakers: DeviceInfo = { kind: 'audiooutput', deviceId: 'speakers', label: 'Speakers' }
let settings: Settings

async function startPlayer() {
  const player = usePlayerStore()
  await player.init()
  await player.playSongs([song(1)])
  await flushPromises()
  return { player, output: outputs.at(-1)!, devices: useOutputDeviceStore() }
}
async function plug(...infos: DeviceInfo[]) {
  system.infos = infos
  system.change()
  await flushPromises()
}

beforeEach(() => {
  setActivePinia(createPinia())
  outputs.length = 0
  made.length = 0
  system.supported = true
  system.hold = undefined
  system.infos = [speakers]
  settings = { ...DEFAULT_SETTINGS, outputDevice: { id: 'usb-dac', label: 'USB DAC' } }
  invoke.mockReset()
  invoke.mockImplementation(async (channel: string, args: never) => {
    if (channel === 'settings:get') return settings
    if (channel === 'settings:update') return (settings = { ...settings, ...(args as Partial<Settings>) })
    if (channel === 'player:resolve') return resolved(song((args as { id: number }).id))
    return undefined
  })
})

describe('the player sound', () => {
  it('makes the output with the equaliser and device of the settings', async () => {
    system.infos = [speakers, usb]
    settings = { ...settings, equaliser: choosePreset(DEFAULT_SETTINGS.equaliser, 'rock') }
    const { devices } = await startPlayer()
    const options = made[0] as { equaliser(): unknown; sinkId(): string; loudnessTarget(): string }
    expect(options.equaliser()).toEqual(settings.equaliser)
    expect(options.sinkId()).toBe('usb-dac')
    expect(options.loudnessTarget()).toBe('-14')
    expect(devices.sinkId).toBe('usb-dac')
  })

  it('hands every equaliser change to the output as it is made', async () => {
    const { output } = await startPlayer()
    const vocal = choosePreset(DEFAULT_SETTINGS.equaliser, 'vocal')
    await useSettingsStore().update({ equaliser: vocal })
    expect(output.equalisers.at(-1)).toEqual(vocal)
  })

  it('plays on the default and says so once when the chosen device is missing, and uses it again when back', async () => {
    const { player, output, devices } = await startPlayer()
    expect(devices.sinkId).toBe('')
    expect(player.notice).toEqual({ type: 'device', label: 'USB DAC' })
    player.clearNotice()
    // Devices come and go; it is still missing: no second message.
    await plug(speakers, { kind: 'audiooutput', deviceId: 'hdmi', label: 'HDMI' })
    expect(player.notice).toBeNull()
    // Plugged in again: the output moves back to it.
    output.accepts.add('usb-dac')
    await plug(speakers, usb)
    expect(output.sinks.at(-1)).toBe('usb-dac')
    // Unplugged again: said again.
    await plug(speakers)
    expect(output.sinks.at(-1)).toBe('')
    expect(player.notice).toEqual({ type: 'device', label: 'USB DAC' })
    // Back while the message is on screen: the message goes, it is no longer true.
    await plug(speakers, usb)
    expect(player.notice).toBeNull()
  })

  it('goes by the newest list when an older one answers late', async () => {
    system.infos = [speakers, usb]
    const { devices, output } = await startPlayer()
    output.accepts.add('usb-dac')
    expect(devices.sinkId).toBe('usb-dac')
    // Unplugged: this list is slow; plugged back in: this one answers first.
    let release = () => undefined as void
    system.hold = new Promise<void>((resolve) => (release = resolve))
    system.infos = [speakers]
    system.change()
    await plug(speakers, usb)
    release()
    await flushPromises()
    expect(devices.sinkId).toBe('usb-dac')
    expect(devices.devices.map((d) => d.deviceId)).toEqual(['speakers', 'usb-dac'])
  })

  it('falls back when the output cannot move onto a listed device', async () => {
    system.infos = [speakers, usb]
    const { player, output, devices } = await startPlayer()
    await useSettingsStore().update({ outputDevice: { id: 'speakers', label: 'Speakers' } })
    await flushPromises()
    // Tried, refused, and back on the default.
    expect(output.sinks.slice(-2)).toEqual(['speakers', ''])
    expect(devices.sinkId).toBe('')
    expect(player.notice).toEqual({ type: 'device', label: 'Speakers' })
  })

  it('stays on the system default, with nothing to say, where the choice is not available', async () => {
    system.supported = false
    const { player, devices } = await startPlayer()
    expect(devices.status).toBe('unsupported')
    expect(devices.sinkId).toBe('')
    expect(player.notice).toBeNull()
  })
})
