import { hasDropout } from './audio-measure'

/**
 * The analysis behind `bench:audio`'s equaliser section: the preset's expected curve from its biquads,
 * and a swept tone's level as recorded. Unit-tested in `test/unit/bench-audio-measure.test.ts`.
 */

const dB = (gain: number) => 20 * Math.log10(Math.max(gain, 1e-12))

/** A band of the equaliser as `renderer/src/services/player/audio/equaliser.ts` describes it. */
export interface Band {
  type: 'lowshelf' | 'peaking' | 'highshelf'
  frequency: number
  q: number
  gain: number
}

/**
 * A `BiquadFilterNode`'s gain (dB) at `hz`, from the Web Audio specification's coefficients (the Audio
 * EQ Cookbook's; the shelves with slope S = 1, their Q unused).
 */
export function biquadDb(band: Band, hz: number, rate: number): number {
  const A = 10 ** (band.gain / 40)
  const w0 = (2 * Math.PI * band.frequency) / rate
  const [cos, sin] = [Math.cos(w0), Math.sin(w0)]
  let b: number[]
  let a: number[]
  if (band.type === 'peaking') {
    const alpha = sin / (2 * band.q)
    b = [1 + alpha * A, -2 * cos, 1 - alpha * A]
    a = [1 + alpha / A, -2 * cos, 1 - alpha / A]
  } else {
    const s = 2 * Math.sqrt(A) * (sin / 2) * Math.SQRT2
    const sign = band.type === 'lowshelf' ? 1 : -1
    b = [
      A * (A + 1 - sign * (A - 1) * cos + s),
      sign * 2 * A * (A - 1 - sign * (A + 1) * cos),
      A * (A + 1 - sign * (A - 1) * cos - s),
    ]
    a = [
      A + 1 + sign * (A - 1) * cos + s,
      -sign * 2 * (A - 1 + sign * (A + 1) * cos),
      A + 1 + sign * (A - 1) * cos - s,
    ]
  }
  const w = (2 * Math.PI * hz) / rate
  const response = (c: number[]) => {
    const re = c[0] + c[1] * Math.cos(w) + c[2] * Math.cos(2 * w)
    const im = -c[1] * Math.sin(w) - c[2] * Math.sin(2 * w)
    return Math.hypot(re, im)
  }
  return dB(response(b) / response(a))
}

/** The equaliser's whole response at `hz` (dB): the preamp and every band. */
export function equaliserDb(preamp: number, bands: Band[], hz: number, rate: number): number {
  return bands.reduce((sum, band) => sum + biquadDb(band, hz, rate), preamp)
}

/**
 * A tone's level (dB, of its amplitude) somewhere in `x[from, to)`: the highest Hann-windowed amplitude
 * of `hz` over windows of 8 of its periods (at least 50 ms) every 5 ms, among those without a
 * drop-out; NaN when every window holds one. Where the tone sits in the span need not be known (a
 * drop-out under load moves what follows), and a neighbour a third of an octave away (two bins off, or
 * more from 50 ms windows) stays about 30 dB under it.
 */
export function toneLevelIn(x: Float32Array, from: number, to: number, hz: number, rate: number): number {
  const n = Math.max(Math.round(0.05 * rate), Math.round((8 * rate) / hz))
  const w = (2 * Math.PI * hz) / rate
  const cos = new Float64Array(n)
  const sin = new Float64Array(n)
  let sum = 0
  for (let i = 0; i < n; i++) {
    const hann = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n)
    cos[i] = hann * Math.cos(w * i)
    sin[i] = hann * Math.sin(w * i)
    sum += hann
  }
  let best = 0
  for (let at = Math.max(0, from); at + n <= Math.min(to, x.length); at += Math.round(rate / 200)) {
    if (hasDropout(x, at, n, rate)) continue
    let re = 0
    let im = 0
    for (let i = 0; i < n; i++) {
      re += x[at + i] * cos[i]
      im += x[at + i] * sin[i]
    }
    best = Math.max(best, (2 * Math.hypot(re, im)) / sum)
  }
  return best > 0 ? dB(best) : Number.NaN
}
