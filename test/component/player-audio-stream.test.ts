import { describe, expect, it } from 'vitest'
import { createResampler } from '@renderer/services/player/audio/resample'
import { decodeFrames, frameRange, parseWavHeader } from '@shared/audio/codec/wav'
import { wavSource } from '@renderer/services/player/audio/pcm-source'
import { pcmWav } from './wav-bytes'

/** A 16-bit PCM WAV file as the demo data source writes it. */
const wav = (rate: number, channels: number, samples: number[][]) =>
  pcmWav(rate, channels, samples[0].length, (f, c) => samples[c][f])

describe('WAV streaming', () => {
  const file = wav(8000, 2, [
    [0, 16384, -16384, 32767, -32768],
    [1, 2, 3, 4, 5],
  ])

  it('reads the layout from the header, and refuses what it cannot play', () => {
    expect(parseWavHeader(file)).toMatchObject({
      sampleRate: 8000,
      channels: 2,
      bitsPerSample: 16,
      dataOffset: 44,
      blockAlign: 4,
      frames: 5,
    })
    expect(parseWavHeader(new TextEncoder().encode('ID3 not a wav file').buffer)).toBeUndefined()
  })

  it('maps frames to the byte range that holds them, and decodes exactly those', () => {
    const layout = parseWavHeader(file)!
    const { start, end } = frameRange(layout, 1, 3)
    expect([start, end]).toEqual([48, 59])
    const [left, right] = decodeFrames(layout, file.slice(start, end + 1))
    expect([...left]).toEqual([0.5, -0.5, 32767 / 32768])
    expect([...right].map((v) => Math.round(v * 32768))).toEqual([2, 3, 4])
    expect(frameRange(layout, 4, 100)).toEqual({ start: 60, end: 63 })
  })
})

describe('a WAV source read by ranges', () => {
  const frames = 400
  const file = wav(8000, 1, [Array.from({ length: frames }, (_, i) => i * 10)])
  const layout = parseWavHeader(file)!
  const source = (headBytes: number) => {
    const asked: string[] = []
    const fetchRange = async (range: string) => {
      asked.push(range)
      const [, a, b] = /bytes=(\d+)-(\d+)/.exec(range)!.map(Number)
      return file.slice(a, b + 1)
    }
    return { asked, pcm: wavSource(layout, 8000, fetchRange, file.slice(0, headBytes)) }
  }
  const values = (samples: Float32Array[]) => [...samples[0]].map((v) => Math.round(v * 32768))

  it('answers a read within the bytes fetched for the header from them, and asks for the rest', async () => {
    const { asked, pcm } = source(44 + 100 * 2)
    pcm.seek(0)
    const first = await pcm.read(100 / 8000, () => true)
    expect(asked).toEqual([])
    expect(values(first!.samples)).toEqual(Array.from({ length: 100 }, (_, i) => i * 10))
    const next = await pcm.read(100 / 8000, () => true)
    expect(asked).toEqual([`bytes=${44 + 200}-${44 + 400 - 1}`])
    expect(values(next!.samples)).toEqual(Array.from({ length: 100 }, (_, i) => (100 + i) * 10))
  })

  it('asks for a read the header bytes hold only in part, whole', async () => {
    const { asked, pcm } = source(44 + 50 * 2)
    pcm.seek(0)
    const first = await pcm.read(100 / 8000, () => true)
    expect(asked).toEqual([`bytes=44-${44 + 200 - 1}`])
    expect(first!.samples[0]).toHaveLength(100)
  })
})

describe('streaming resampler', () => {
  const tone = (rate: number, seconds: number) =>
    Float32Array.from({ length: rate * seconds }, (_, i) => Math.sin((2 * Math.PI * 440 * i) / rate))

  it('passes the context rate through untouched', () => {
    const input = tone(48000, 0.01)
    expect(createResampler(48000, 48000, 1).push([input])[0]).toEqual(input)
  })

  it('gives the same signal whether fed whole or in chunks: no seam at chunk borders', () => {
    const input = tone(20000, 1)
    const whole = createResampler(20000, 48000, 1).push([input])[0]
    const chunked = createResampler(20000, 48000, 1)
    const parts: Float32Array[] = []
    for (let at = 0; at < input.length; at += 777) parts.push(chunked.push([input.subarray(at, at + 777)])[0])
    const joined = Float32Array.from(parts.flatMap((part) => [...part]))
    expect(joined.length).toBe(whole.length)
    let worst = 0
    for (let i = 0; i < whole.length; i++) worst = Math.max(worst, Math.abs(joined[i] - whole[i]))
    expect(worst).toBeLessThan(1e-6)
    // And it is the tone, at the new rate, within cubic interpolation's error.
    const expected = (n: number) => Math.sin((2 * Math.PI * 440 * n) / 48000)
    let error = 0
    for (let n = 100; n < whole.length - 100; n++) error = Math.max(error, Math.abs(whole[n] - expected(n)))
    expect(error).toBeLessThan(0.01)
  })
})
