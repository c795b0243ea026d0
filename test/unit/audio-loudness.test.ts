import { describe, expect, it } from 'vitest'
import { createLoudnessMeter, kWeighting } from '@shared/audio/loudness'

function sine(seconds: number, rate: number, frequency: number, amplitude: number, phase = 0): Float32Array {
  const out = new Float32Array(Math.round(seconds * rate))
  for (let i = 0; i < out.length; i++)
    out[i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / rate + phase)
  return out
}
const concat = (...parts: Float32Array[]) => {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
function measure(channels: Float32Array[], rate: number, chunk = channels[0].length) {
  const meter = createLoudnessMeter(rate, channels.length)
  for (let at = 0; at < channels[0].length; at += chunk)
    meter.push(channels.map((c) => c.subarray(at, at + chunk)))
  return meter.result()
}

describe('loudness meter (EBU R128 / BS.1770)', () => {
  it('has the K-weighting coefficients BS.1770 tables for 48 kHz', () => {
    const [shelf, highPass] = kWeighting(48000)
    expect(shelf.b0).toBeCloseTo(1.53512485958697, 9)
    expect(shelf.b1).toBeCloseTo(-2.69169618940638, 9)
    expect(shelf.b2).toBeCloseTo(1.19839281085285, 9)
    expect(shelf.a1).toBeCloseTo(-1.69065929318241, 9)
    expect(shelf.a2).toBeCloseTo(0.73248077421585, 9)
    expect(highPass.a1).toBeCloseTo(-1.99004745483398, 9)
    expect(highPass.a2).toBeCloseTo(0.99007225036621, 9)
  })

  it('reads a 997 Hz sine on both channels at its level in dBFS, at 48 and 44.1 kHz', () => {
    for (const rate of [48000, 44100]) {
      const tone = sine(5, rate, 997, 0.1)
      const { integrated, seconds } = measure([tone, tone], rate)
      expect(integrated).toBeGreaterThan(-20.1)
      expect(integrated).toBeLessThan(-19.9)
      expect(seconds).toBeCloseTo(5, 5)
    }
  })

  it('measures mono as heard on two speakers, the same as the stereo song', () => {
    const rate = 20000
    const tone = sine(4, rate, 997, 0.2)
    expect(measure([tone], rate).integrated).toBeCloseTo(measure([tone, tone], rate).integrated, 6)
  })

  it('gives the same answer whatever the chunks it is fed in', () => {
    const rate = 44100
    const left = sine(3, rate, 440, 0.3)
    const right = sine(3, rate, 660, 0.2)
    const whole = measure([left, right], rate)
    const chunked = measure([left, right], rate, 1013)
    expect(chunked.integrated).toBeCloseTo(whole.integrated, 9)
    expect(chunked.truePeak).toBeCloseTo(whole.truePeak, 9)
  })

  it('gates out silence and near-silence (absolute −70 and relative −10 gates)', () => {
    const rate = 48000
    const loud = sine(5, rate, 997, 0.1)
    const quiet = sine(5, rate, 997, 0.0001)
    // Only the few 400 ms blocks straddling the change count beside the loud half.
    const gated = measure([concat(loud, quiet), concat(loud, quiet)], rate)
    expect(Math.abs(gated.integrated - measure([loud, loud], rate).integrated)).toBeLessThan(0.2)
    // −30 dB for half the song is under the relative gate too.
    const softer = sine(5, rate, 997, 0.1 / 31.6)
    expect(measure([concat(loud, softer), concat(loud, softer)], rate).integrated).toBeCloseTo(-20, 0)
    expect(measure([new Float32Array(rate * 2)], rate).integrated).toBe(Number.NEGATIVE_INFINITY)
  })

  it('finds the true peak between samples', () => {
    // A quarter of the sample rate at 45°: every sample is at 0.354, the wave itself reaches 0.5.
    const rate = 48000
    const tone = sine(1, rate, rate / 4, 0.5, Math.PI / 4)
    const samplePeak = 20 * Math.log10(Math.max(...tone.map(Math.abs)))
    const { truePeak } = measure([tone, tone], rate)
    expect(samplePeak).toBeLessThan(-8.9)
    expect(truePeak).toBeGreaterThan(-6.5)
    expect(truePeak).toBeLessThan(-5.5)
  })
})
