import { describe, expect, it, vi } from 'vitest'
import { decideOutput, deviceOptions, listOutputs } from '@renderer/services/player/audio/device'
import { createOutputGraph } from '@renderer/services/player/audio/graph'
import { applySink } from '@renderer/services/player/audio/sink'
import { asContext, FakeContext } from './audio-fakes'

const usb = { deviceId: 'usb-dac', label: 'USB DAC' }
const hdmi = { deviceId: 'hdmi', label: 'HDMI' }
const wantsUsb = { id: 'usb-dac', label: 'USB DAC' }

describe('listOutputs', () => {
  it('keeps the output devices, without the system aliases and what the browser hides', () => {
    const list = listOutputs([
      { kind: 'audioinput', deviceId: 'mic', label: 'Microphone' },
      { kind: 'audiooutput', deviceId: 'default', label: 'Default - USB DAC' },
      { kind: 'audiooutput', deviceId: 'communications', label: 'Communications' },
      { kind: 'audiooutput', ...usb },
      { kind: 'audiooutput', ...hdmi },
    ])
    expect(list).toEqual({ devices: [usb, hdmi], hidden: false })
  })

  it('says when the browser lists outputs but hides which they are', () => {
    expect(listOutputs([{ kind: 'audiooutput', deviceId: '', label: '' }])).toEqual({
      devices: [],
      hidden: true,
    })
    expect(listOutputs([])).toEqual({ devices: [], hidden: false })
  })
})

describe('decideOutput', () => {
  it('plays on the system default when that is the choice', () => {
    expect(decideOutput({ wanted: { id: '', label: '' }, available: [usb] })).toEqual({ sinkId: '' })
    expect(decideOutput({ wanted: { id: 'default', label: '' }, available: [] })).toEqual({ sinkId: '' })
  })

  it('plays on the chosen device while it is connected', () => {
    expect(decideOutput({ wanted: wantsUsb, available: [hdmi, usb] })).toEqual({ sinkId: 'usb-dac' })
  })

  it('falls back to the default when it is missing, naming it once while it stays missing', () => {
    const first = decideOutput({ wanted: wantsUsb, available: [hdmi] })
    expect(first).toEqual({ sinkId: '', missing: 'usb-dac', announce: 'USB DAC' })
    const again = decideOutput({ wanted: wantsUsb, available: [hdmi], announced: first.missing })
    expect(again).toEqual({ sinkId: '', missing: 'usb-dac' })
  })

  it('uses it again when it is back, and names it again when it goes again', () => {
    const back = decideOutput({ wanted: wantsUsb, available: [usb], announced: 'usb-dac' })
    expect(back).toEqual({ sinkId: 'usb-dac' })
    expect(decideOutput({ wanted: wantsUsb, available: [], announced: back.missing }).announce).toBe(
      'USB DAC',
    )
  })

  it('names a device by its id when its label was never known', () => {
    expect(decideOutput({ wanted: { id: 'x1', label: '' }, available: [] }).announce).toBe('x1')
  })

  it('tries the chosen device when the list cannot be known, and counts a refusal as missing', () => {
    expect(decideOutput({ wanted: wantsUsb })).toEqual({ sinkId: 'usb-dac' })
    expect(decideOutput({ wanted: wantsUsb, refused: ['usb-dac'] })).toEqual({
      sinkId: '',
      missing: 'usb-dac',
      announce: 'USB DAC',
    })
    // Listed, but refused when the output moved onto it (gone in between).
    expect(decideOutput({ wanted: wantsUsb, available: [usb], refused: ['usb-dac'] }).sinkId).toBe('')
  })
})

describe('deviceOptions', () => {
  it('offers the system default first, then the devices', () => {
    expect(deviceOptions([usb, hdmi], { id: '', label: '' })).toEqual([
      { id: '', label: '', state: 'default' },
      { id: 'usb-dac', label: 'USB DAC', state: 'present' },
      { id: 'hdmi', label: 'HDMI', state: 'present' },
    ])
  })

  it('still shows the chosen device when it is not connected', () => {
    expect(deviceOptions([hdmi], wantsUsb).at(-1)).toEqual({
      id: 'usb-dac',
      label: 'USB DAC',
      state: 'missing',
    })
    expect(deviceOptions([usb], wantsUsb).filter((o) => o.state === 'missing')).toEqual([])
  })
})

describe('the output device in the graph', () => {
  it('plays on the device decided when the graph is made, and reports a refusal', async () => {
    const fake = new FakeContext()
    fake.devices.add('usb-dac')
    const refused = vi.fn()
    const graph = createOutputGraph({
      createContext: () => asContext(fake),
      sinkId: () => 'usb-dac',
      onSinkRefused: refused,
    })
    graph.graph()
    await vi.waitFor(() => expect(fake.sinkId).toBe('usb-dac'))
    expect(refused).not.toHaveBeenCalled()

    const gone = new FakeContext()
    const later = createOutputGraph({
      createContext: () => asContext(gone),
      sinkId: () => 'usb-dac',
      onSinkRefused: refused,
    })
    later.graph()
    await vi.waitFor(() => expect(refused).toHaveBeenCalledWith('usb-dac'))
  })

  it('moves a running context to another device, and says when it cannot', async () => {
    const fake = new FakeContext()
    fake.devices.add('hdmi')
    const graph = createOutputGraph({ createContext: () => asContext(fake) })
    // Before the graph exists there is nothing to move: the device is read when it is made.
    expect(await graph.applySink('hdmi')).toBe('done')
    expect(fake.sinkCalls).toEqual([])
    graph.graph()
    expect(fake.sinkCalls).toEqual([])
    expect(await graph.applySink('hdmi')).toBe('done')
    expect(fake.sinkId).toBe('hdmi')
    expect(fake.state).toBe('running')
    expect(await graph.applySink('hdmi')).toBe('done')
    expect(fake.sinkCalls).toEqual(['hdmi'])
    expect(await graph.applySink('usb-dac')).toBe('refused')
    expect(fake.sinkId).toBe('hdmi')
    expect(await graph.applySink('')).toBe('done')
    expect(fake.sinkId).toBe('')
  })

  it('says the choice is not available where the browser has no setSinkId', async () => {
    const old = asContext(new FakeContext())
    ;(old as unknown as { setSinkId?: unknown }).setSinkId = undefined
    expect(await applySink(old, 'hdmi')).toBe('unsupported')
  })
})
