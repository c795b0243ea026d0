import { describe, expect, it } from 'vitest'
import {
  burstOnsets,
  measureBoundaries,
  measureCrossfade,
  peakFrequency,
  speedFromOnsets,
} from '../bench/audio-measure'
import { biquadDb, toneLevelIn } from '../bench/audio-measure-eq'
import { ALBUM_PEAK, albumSignal } from '../bench/audio-signals'
import { dropouts, dropoutsAcross, unmatchedRuns } from '../bench/audio-record'

/**
 * The analysis behind `bench:audio`'s album, speed, crossfade and equaliser sections, on signals made
 * here whose answers are known: a gap put in, frames taken out, a tone's frequency, bursts at a speed,
 * crossfade curves, the biquads' gains where the cookbook fixes them.
 */

const RATE = 48000
const sine = (hz: number, seconds: number, amplitude = 0.25) =>
  Float32Array.from(
    { length: Math.round(seconds * RATE) },
    (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / RATE),
  )

describe('bench:audio analysis', { timeout: 60_000 }, () => {
  it('finds the time a boundary adds: a gap of 0.5 ms, 3 frames lost, none', () => {
    // The album's signal from 0.2 s into the "recording", with boundaries at 2, 4 and 6 s of it:
    // 24 frames of silence at the first, 3 frames dropped at the second, nothing at the third.
    const lead = 0.2 * RATE
    const edits = [
      { at: 2, add: 24 },
      { at: 4, add: -3 },
      { at: 6, add: 0 },
    ]
    const out: number[] = new Array(lead).fill(0)
    let shift = 0
    for (let t = 0; t < 7 * RATE; t++) {
      const edit = edits.find((e) => Math.round(e.at * RATE) === t)
      if (edit && edit.add > 0) for (let i = 0; i < edit.add; i++) out.push(0)
      if (edit && edit.add < 0) shift -= edit.add
      if (t + shift < 7 * RATE) out.push(albumSignal((t + shift) / RATE))
    }
    const rec = Float32Array.from(out)
    const found = measureBoundaries(rec, albumSignal, [2, 4, 6], lead + 0.03 * RATE, RATE, ALBUM_PEAK)
    expect(Math.abs(found.start - lead)).toBeLessThan(0.1)
    const added = found.boundaries.map((b) => b.addedMs)
    expect(added[0]).toBeCloseTo(0.5, 2)
    expect(added[1]).toBeCloseTo(-3 / 48, 2)
    expect(Math.abs(added[2])).toBeLessThan(0.01)
    // The gap is silence and a step from the continued signal; none inside the track.
    expect(found.boundaries[0].silenceMs).toBeGreaterThanOrEqual(0.45)
    expect(found.boundaries[0].largestOff).toBeGreaterThan(0.1)
    expect(found.boundaries[2].largestOff).toBeLessThan(0.01)
    expect(found.boundaries[0].ownOff).toBeLessThan(0.01)
  })

  it('finds a gap longer than the signal repeats in: 100 ms', () => {
    const lead = 0.1 * RATE
    const out: number[] = new Array(lead).fill(0)
    for (let t = 0; t < 4 * RATE; t++) {
      if (t === 2 * RATE) for (let i = 0; i < 0.1 * RATE; i++) out.push(0)
      out.push(albumSignal(t / RATE))
    }
    const found = measureBoundaries(Float32Array.from(out), albumSignal, [2], lead, RATE, ALBUM_PEAK)
    expect(found.boundaries[0].addedMs).toBeCloseTo(100, 1)
    expect(found.boundaries[0].silenceMs).toBeGreaterThan(49)
  })

  it('measures a tone’s frequency to a tenth of a hertz', () => {
    const x = sine(1003.3, 0.3)
    expect(Math.abs(peakFrequency(x, 0, 0.2 * RATE, 950, 1050, RATE) - 1003.3)).toBeLessThan(0.1)
  })

  it('tells the speed from bursts every 0.5 s of the song, one of them missed', () => {
    for (const speed of [0.75, 1.5, 2]) {
      const seconds = 4
      const spacing = 0.5 / speed
      const x = Float32Array.from({ length: seconds * RATE }, (_, i) => {
        const t = i / RATE
        const inBurst = t % spacing < 0.15 / speed && Math.floor(t / spacing) !== 3
        return (
          0.25 * Math.sin(2 * Math.PI * 1000 * t) + (inBurst ? 0.25 * Math.sin(2 * Math.PI * 2500 * t) : 0)
        )
      })
      const onsets = burstOnsets(x, 0, x.length, 2500, RATE, 0.6 * spacing * RATE)
      // Every burst but the missed one and the first (sounding from the start: no onset).
      expect(onsets.length).toBe(Math.ceil(seconds / spacing) - 2)
      expect(Math.abs(speedFromOnsets(onsets, 0.5, speed, RATE) / speed - 1)).toBeLessThan(0.002)
    }
  })

  it('measures an equal-power crossfade’s length and flat sum, and a linear one’s dip', () => {
    const curve = (kind: 'power' | 'linear') => {
      const [start, length] = [3, 4]
      return Float32Array.from({ length: 10 * RATE }, (_, i) => {
        const t = i / RATE
        const p = Math.min(1, Math.max(0, (t - start) / length))
        const [out, into] =
          kind === 'power' ? [Math.cos((Math.PI / 2) * p), Math.sin((Math.PI / 2) * p)] : [1 - p, p]
        return 0.25 * (out * Math.sin(2 * Math.PI * 600 * t) + into * Math.sin(2 * Math.PI * 900 * t))
      })
    }
    const power = measureCrossfade(curve('power'), 0, 10 * RATE, 600, 900, RATE)
    expect(power.seconds).toBeCloseTo(4, 1)
    expect(power.startFrame / RATE).toBeCloseTo(3, 1)
    expect(power.sumDb[0]).toBeGreaterThan(-0.1)
    expect(power.sumDb[1]).toBeLessThan(0.1)
    expect(Math.max(...power.curveOffDb)).toBeLessThan(0.2)
    const linear = measureCrossfade(curve('linear'), 0, 10 * RATE, 600, 900, RATE)
    expect(linear.sumDb[0]).toBeLessThan(-2.5)
  })

  it('gives the biquads’ gains where the cookbook fixes them', () => {
    const peak = { type: 'peaking' as const, frequency: 1000, q: Math.SQRT2, gain: 6 }
    expect(biquadDb(peak, 1000, RATE)).toBeCloseTo(6, 6)
    expect(Math.abs(biquadDb(peak, 20, RATE))).toBeLessThan(0.05)
    const low = { type: 'lowshelf' as const, frequency: 31, q: Math.SQRT2, gain: 6 }
    expect(biquadDb(low, 1, RATE)).toBeCloseTo(6, 2)
    expect(biquadDb(low, 31, RATE)).toBeCloseTo(3, 1)
    expect(Math.abs(biquadDb(low, 5000, RATE))).toBeLessThan(0.01)
    const high = { type: 'highshelf' as const, frequency: 16000, q: Math.SQRT2, gain: -6 }
    expect(biquadDb(high, 23999, RATE)).toBeCloseTo(-6, 1)
    expect(Math.abs(biquadDb(high, 100, RATE))).toBeLessThan(0.01)
  })
})

describe('bench:audio analysis, the equaliser sweep', { timeout: 60_000 }, () => {
  it('finds a step’s tone wherever it sits, past a drop-out, apart from its neighbours', () => {
    // 0.4 s steps of 1000, 1260 (6 dB up) and 1587 Hz; 20 ms of silence inside the middle step.
    const steps = [
      { hz: 1000, amplitude: 0.1 },
      { hz: 1260, amplitude: 0.2 },
      { hz: 1587, amplitude: 0.1 },
    ]
    const x = new Float32Array(1.2 * RATE)
    steps.forEach((step, k) => {
      for (let i = 0; i < 0.4 * RATE; i++)
        x[k * 0.4 * RATE + i] = step.amplitude * Math.sin((2 * Math.PI * step.hz * i) / RATE)
    })
    x.fill(0, 0.55 * RATE, 0.57 * RATE)
    expect(toneLevelIn(x, 0, x.length, 1260, RATE)).toBeCloseTo(20 * Math.log10(0.2), 1)
    expect(toneLevelIn(x, 0, x.length, 1000, RATE)).toBeCloseTo(20 * Math.log10(0.1), 1)
    expect(toneLevelIn(x, 0.8 * RATE, x.length, 1000, RATE)).toBeLessThan(20 * Math.log10(0.1) - 30)
  })
})

describe('bench:audio analysis, silences across files', () => {
  it('counts a silent tail and the next file’s silent head as one run, as a gapless boundary is heard', () => {
    // File A (44.1 kHz) ends in 15 ms of silence; file B (48 kHz) starts with 1.5 ms of it and has a 2 ms
    // silence at 0.5 s.
    const tone = (rate: number, seconds: number) =>
      Float32Array.from(
        { length: Math.round(seconds * rate) },
        (_, i) => 0.25 * Math.sin((2 * Math.PI * 440 * i) / rate),
      )
    const a = tone(44100, 1)
    a.fill(0, a.length - Math.round(0.015 * 44100))
    const b = tone(RATE, 1)
    b.fill(0, 0, Math.round(0.0015 * RATE))
    b.fill(0, 0.5 * RATE, 0.502 * RATE)
    const runs = dropoutsAcross([
      { channels: [a, a], from: 0, to: a.length, rate: 44100 },
      { channels: [b, b], from: 0, to: b.length, rate: RATE },
    ])
    expect(runs.map((run) => Math.round(run * 10) / 10)).toEqual([16.5, 2])
    // Each file on its own: A's tail never ends inside it, so it is not counted.
    expect(dropouts([a, a], 0, a.length, 44100)).toEqual([])
  })
  it('tells a drop-out from the files’ own silences by length, in order', () => {
    // Heard: the files' 1.6 ms, their boundary 3 ms shorter, a 22.4 ms drop-out, their 1.4 ms.
    expect(unmatchedRuns([1.6, 16.7, 22.4, 1.2], [1.6, 19.7, 1.4])).toEqual([22.4])
    expect(unmatchedRuns([1.6, 16.7, 1.3], [1.6, 19.7, 1.4])).toEqual([])
    // A run of the right length out of order is not the files' (each of theirs is heard once).
    expect(unmatchedRuns([1.5, 1.5], [1.5])).toEqual([1.5])
  })
})
