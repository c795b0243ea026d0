import { describe, expect, it } from 'vitest'
import { createStretcher } from '@renderer/services/player/audio/stretch'

const RATE = 48000

const sine = (hz: number, seconds: number, rate = RATE, phase = 0) =>
  Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) =>
    Math.sin((2 * Math.PI * hz * i) / rate + phase),
  )

/** Stretches `input` fed in chunks of varying sizes, then flushes. */
function stretch(input: Float32Array[], speed: number, sizes = [777, 12000, 256, 4096]): Float32Array[] {
  const stretcher = createStretcher(speed, input.length, RATE)
  const parts: Float32Array[][] = []
  for (let at = 0, i = 0; at < input[0].length; i++) {
    const size = sizes[i % sizes.length]
    parts.push(stretcher.push(input.map((channel) => channel.subarray(at, at + size))))
    at += size
  }
  parts.push(stretcher.flush())
  return input.map((_, c) => Float32Array.from(parts.flatMap((part) => [...part[c]])))
}

/** The frequency of the strongest DFT bin between `from` and `to` Hz (1 Hz steps) over `signal`. */
function peakHz(signal: Float32Array, from: number, to: number): number {
  let best = from
  let bestPower = -1
  for (let hz = from; hz <= to; hz++) {
    let re = 0
    let im = 0
    for (let n = 0; n < signal.length; n++) {
      const angle = (2 * Math.PI * hz * n) / RATE
      re += signal[n] * Math.cos(angle)
      im -= signal[n] * Math.sin(angle)
    }
    const power = re * re + im * im
    if (power > bestPower) [best, bestPower] = [hz, power]
  }
  return best
}

function zeroCrossingHz(signal: Float32Array): number {
  let crossings = 0
  for (let i = 1; i < signal.length; i++) if (signal[i - 1] < 0 !== signal[i] < 0) crossings++
  return crossings / 2 / (signal.length / RATE)
}

const rms = (signal: Float32Array) => Math.sqrt(signal.reduce((total, v) => total + v * v, 0) / signal.length)

describe('time-stretch (WSOLA)', () => {
  it('passes speed 1 through bit for bit', () => {
    const input = [sine(440, 0.3), sine(660, 0.3)]
    const stretcher = createStretcher(1, 2, RATE)
    const out = stretcher.push(input)
    expect(out).toEqual(input)
    expect(out[0]).not.toBe(input[0])
    expect(stretcher.flush().map((channel) => channel.length)).toEqual([0, 0])
  })

  it('makes the output 1/speed times as long as the input, to the frame', () => {
    const input = [sine(440, 2), sine(440, 2)]
    for (const speed of [0.5, 0.75, 1.25, 1.5, 2]) {
      const out = stretch(input, speed)
      expect(out[0].length).toBe(Math.round(input[0].length / speed))
      expect(out[1].length).toBe(out[0].length)
    }
  })

  it('keeps the pitch of a sine at 0.5× to 2×, at its level, without seams', () => {
    for (const speed of [0.5, 0.8, 1.5, 2]) {
      const [out] = stretch([sine(440, 2)], speed)
      // The middle of the output: away from the start and the silence-padded end.
      const middle = out.subarray(4800, out.length - 4800)
      expect(Math.abs(peakHz(middle.subarray(0, 24000), 400, 480) - 440)).toBeLessThanOrEqual(4)
      expect(Math.abs(zeroCrossingHz(middle) - 440) / 440).toBeLessThan(0.03)
      expect(rms(middle)).toBeGreaterThan(0.65)
      expect(rms(middle)).toBeLessThan(0.76)
      // Frames added in phase: no step larger than a 440 Hz sine's own (2π·440/48000 ≈ 0.058) by much.
      let step = 0
      for (let i = 1; i < middle.length; i++) step = Math.max(step, Math.abs(middle[i] - middle[i - 1]))
      expect(step).toBeLessThan(0.09)
    }
  })

  it('gives the same signal whether fed whole or in chunks', () => {
    const input = [sine(330, 1.5), sine(550, 1.5, RATE, 1)]
    const whole = stretch(input, 1.5, [input[0].length])
    const chunked = stretch(input, 1.5)
    expect(chunked[0].length).toBe(whole[0].length)
    for (let c = 0; c < 2; c++) {
      let worst = 0
      for (let i = 0; i < whole[c].length; i++) worst = Math.max(worst, Math.abs(whole[c][i] - chunked[c][i]))
      expect(worst).toBeLessThan(1e-6)
    }
  })

  it('moves every channel by the same offsets, so the stereo image is kept', () => {
    const left = sine(440, 1)
    const right = left.map((v) => -0.5 * v)
    const [outLeft, outRight] = stretch([left, right], 1.5)
    for (let i = 0; i < outLeft.length; i++) expect(outRight[i]).toBeCloseTo(-0.5 * outLeft[i], 5)
  })

  it('starts at full level: the first frame does not fade in', () => {
    const [out] = stretch([new Float32Array(RATE).fill(0.5)], 1.5)
    expect(out[0]).toBe(0.5)
    expect(Math.min(...out.subarray(0, out.length - 2000))).toBeGreaterThan(0.49)
  })
})
