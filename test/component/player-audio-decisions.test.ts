import { describe, expect, it } from 'vitest'
import { chooseGainDb, gainRampSeconds, TRUE_PEAK_CEILING } from '@shared/audio/gain'
import { chooseDevice } from '@renderer/services/player/audio/device'
import {
  EQ_BANDS,
  equaliserChain,
  equaliserPreamp,
  presetSettings,
  suggestedPreamp,
} from '@renderer/services/player/audio/equaliser'
import { clampFade, planFade } from '@renderer/services/player/audio/fades'
import { crossfadeSeconds, nextStartTime, shouldPrepareNext } from '@renderer/services/player/audio/gapless'
import { heldBytes } from '@renderer/services/player/audio/memory'

describe('gain toward the loudness target', () => {
  it('brings a measured song to −14 or −18 LUFS, and leaves it alone when off', () => {
    expect(chooseGainDb({ integrated: -10, truePeak: -0.2 }, '-14')).toBeCloseTo(-4)
    expect(chooseGainDb({ integrated: -10, truePeak: -0.2 }, '-18')).toBeCloseTo(-8)
    expect(chooseGainDb({ integrated: -20, truePeak: -9 }, '-14')).toBeCloseTo(6)
    expect(chooseGainDb({ integrated: -20, truePeak: -9 }, 'off')).toBe(0)
  })

  it('raises a quiet song only as far as its true peak allows', () => {
    const gain = chooseGainDb({ integrated: -22, truePeak: -3 }, '-14')
    expect(gain).toBeCloseTo(TRUE_PEAK_CEILING - -3)
    expect(-3 + gain).toBeLessThanOrEqual(TRUE_PEAK_CEILING)
  })

  it('starts a song not measured yet quieter than the target, never louder', () => {
    expect(chooseGainDb(undefined, '-14')).toBeLessThan(0)
    expect(chooseGainDb(undefined, '-18')).toBeLessThan(chooseGainDb(undefined, '-14'))
    expect(chooseGainDb(undefined, 'off')).toBe(0)
  })

  it('spreads a correction over seconds, longer for a bigger step', () => {
    expect(gainRampSeconds(-7, -7)).toBe(0)
    expect(gainRampSeconds(-7, -6)).toBe(0.5)
    expect(gainRampSeconds(-7, 2)).toBe(3)
    expect(gainRampSeconds(-7, 20)).toBe(4)
  })
})

describe('fades', () => {
  it('fades out before a pause, stop or seek cuts, and in on resume, within 5–20 ms', () => {
    for (const change of ['pause', 'stop', 'seek'] as const) {
      const plan = planFade(change, 10)
      expect(plan.ramps).toHaveLength(1)
      expect(plan.ramps[0]).toMatchObject({ at: 10, to: 0 })
      expect(plan.cutAt! - 10).toBeCloseTo(plan.ramps[0].seconds, 9)
      expect(plan.cutAt! - 10).toBeGreaterThanOrEqual(0.005)
      expect(plan.cutAt! - 10).toBeLessThanOrEqual(0.02)
    }
    const resume = planFade('resume', 3)
    expect(resume.ramps[0]).toMatchObject({ at: 3, to: 1 })
    expect(resume.cutAt).toBeUndefined()
    expect(clampFade(0.001)).toBe(0.005)
    expect(clampFade(1)).toBe(0.02)
  })
})

describe('gapless and crossfade', () => {
  it('prepares the next song once, when the current one is close to its end', () => {
    expect(shouldPrepareNext(60, false)).toBe(false)
    expect(shouldPrepareNext(14, false)).toBe(true)
    expect(shouldPrepareNext(14, true)).toBe(false)
  })

  it('starts the next song on the sample where the current one ends', () => {
    // 10 s at 44.1 kHz started at clock 2.5: the next song's frame 0 is at 12.5 exactly.
    expect(nextStartTime(2.5, 441000, 44100)).toBe(12.5)
    expect(nextStartTime(2.5, 441000, 44100, 3)).toBe(9.5)
  })

  it('crossfades only when asked, within 1–12 s, never between consecutive tracks of one album', () => {
    const a = { albumId: 7, trackNumber: 1, duration: 200 }
    const b = { albumId: 7, trackNumber: 2, duration: 200 }
    const other = { albumId: 9, trackNumber: 1, duration: 200 }
    expect(crossfadeSeconds(0, a, other)).toBe(0)
    expect(crossfadeSeconds(5, a, other)).toBe(5)
    expect(crossfadeSeconds(30, a, other)).toBe(12)
    expect(crossfadeSeconds(0.2, a, other)).toBe(1)
    expect(crossfadeSeconds(5, a, b)).toBe(0)
    expect(crossfadeSeconds(5, { ...a, trackNumber: 5 }, b)).toBe(5)
    expect(crossfadeSeconds(5, { duration: 200 }, { duration: 200 })).toBe(5)
    expect(crossfadeSeconds(12, { ...a, duration: 6 }, other)).toBe(3)
  })
})

describe('output device', () => {
  const devices = [
    { deviceId: 'usb-dac', label: 'USB DAC' },
    { deviceId: 'hdmi', label: 'HDMI' },
  ]
  it('plays on the chosen device while it is there, and on the default with a message when it is gone', () => {
    expect(chooseDevice('usb-dac', devices)).toEqual({ sinkId: 'usb-dac' })
    expect(chooseDevice(undefined, devices)).toEqual({ sinkId: '' })
    expect(chooseDevice('headphones', devices, 'My headphones')).toEqual({
      sinkId: '',
      fellBack: 'My headphones',
    })
  })
})

describe('equaliser', () => {
  it('builds ten filters from 31 Hz to 16 kHz with shelves at the ends, none when flat or off', () => {
    const boosted = { enabled: true, gains: [20, 0, 0, 0, 0, 0, 0, 0, 0, 3], preamp: -30 }
    const filters = equaliserChain(boosted)!.filters
    expect(filters.map((f) => f.frequency)).toEqual([...EQ_BANDS])
    expect(filters[0]).toMatchObject({ type: 'lowshelf', gain: 12 })
    expect(filters[9]).toMatchObject({ type: 'highshelf', gain: 3 })
    expect(filters[4].type).toBe('peaking')
    expect(equaliserPreamp(boosted)).toBe(-12)
    expect(equaliserChain({ ...boosted, enabled: false })).toBeUndefined()
    expect(equaliserChain({ enabled: true, gains: Array(10).fill(0), preamp: 0 })).toBeUndefined()
  })

  it('gives each preset a preamp that keeps its largest boost from clipping', () => {
    expect(presetSettings('bass').preamp).toBe(-6)
    expect(presetSettings('flat').preamp).toBe(0)
    expect(suggestedPreamp([-3, -2])).toBe(0)
  })
})

describe('memory', () => {
  it('holds a bounded window of a 10-minute lossless song, not its whole PCM', () => {
    const tenMinutes = heldBytes(600, 44100, 2)
    expect(tenMinutes).toBeLessThan(10 * 1024 * 1024)
    expect(heldBytes(600, 44100, 2)).toBe(heldBytes(3600, 44100, 2))
    expect(heldBytes(10, 44100, 2)).toBe(10 * 44100 * 2 * 4)
  })
})

describe('stored loudness', () => {
  it('is kept per data source and song, whatever the bitrate, and ignores unreadable entries', async () => {
    const { storedLoudness } = await import('@renderer/services/player/audio/loudness')
    localStorage.setItem('cadence.loudness.builtin:7', JSON.stringify({ integrated: -11.5, truePeak: -0.4 }))
    localStorage.setItem('cadence.loudness.builtin:8', '{not json')
    expect(storedLoudness('cadence-media://song/builtin/7?br=128000')).toEqual({
      integrated: -11.5,
      truePeak: -0.4,
    })
    expect(storedLoudness('cadence-media://song/builtin/7?br=1411200')).toEqual({
      integrated: -11.5,
      truePeak: -0.4,
    })
    expect(storedLoudness('cadence-media://song/other/7?br=128000')).toBeUndefined()
    expect(storedLoudness('cadence-media://song/builtin/8?br=128000')).toBeUndefined()
    expect(chooseGainDb(storedLoudness('cadence-media://song/builtin/7?br=1'), '-14')).toBeCloseTo(-2.5)
  })
})
