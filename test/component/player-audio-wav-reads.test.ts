import { describe, expect, it } from 'vitest'
import { decodeFrames, parseWavHeader } from '@shared/audio/codec/wav'
import { wavSource } from '@renderer/services/player/audio/pcm-source'
import { pcmWav } from './wav-bytes'

const RATE = 8000
const SECONDS = 60
/** A 60 s song as the reference data source makes its demo songs: 16-bit PCM WAV, 8 kHz mono (16 KB a second). */
// Every frame its own value (a slow ramp with a fast one over it), so a frame out of place shows.
const wav = (frames: number) => pcmWav(RATE, 1, frames, (f) => ((f * 7) % 32_000) - 16_000 + (f >> 6))
const file = wav(SECONDS * RATE)
const layout = parseWavHeader(file)!
const whole = decodeFrames(layout, file.slice(layout.dataOffset))[0]

/** The WAV source over `file`, its first 64 KB already fetched (as `open-song.ts` does), counting ranges. */
function source() {
  const asked: Array<[number, number]> = []
  const fetchRange = async (range: string) => {
    const [, a, b] = /bytes=(\d+)-(\d+)/.exec(range)!.map(Number)
    asked.push([a, b])
    return file.slice(a, b + 1)
  }
  return { asked, pcm: wavSource(layout, RATE, fetchRange, file.slice(0, 64 * 1024)) }
}

/** Reads as playback does: a 0.25 s first chunk, then 5 s at a time, until `seconds` or the end. */
async function readOn(pcm: ReturnType<typeof source>['pcm'], seconds = Number.POSITIVE_INFINITY) {
  const parts: Float32Array[] = []
  let total = 0
  for (let i = 0; total < seconds * RATE; i++) {
    const read = await pcm.read(i === 0 ? 0.25 : 5, () => true)
    parts.push(read!.samples[0])
    total += read!.samples[0].length
    if (read!.last) break
  }
  const joined = new Float32Array(total)
  parts.reduce((at, part) => (joined.set(part, at), at + part.length), 0)
  return joined
}

/** Whether `a` holds exactly the samples of `b` (a loop: `toEqual` on 480,000 floats is slow). */
const same = (a: Float32Array, b: Float32Array) => a.length === b.length && a.every((v, i) => v === b[i])

describe('a WAV song read while it plays on', () => {
  it('asks for a range about every half minute, not at every chunk, and plays every sample once', async () => {
    const { asked, pcm } = source()
    pcm.seek(0)
    const played = await readOn(pcm)
    expect(played.length).toBe(whole.length)
    expect(same(played, whole)).toBe(true)
    // A range per 5 s chunk was 12; now the start's two small ones and then up to 30 s ahead.
    expect(asked.length).toBeLessThanOrEqual(5)
    // Each byte fetched about once (the start's second read asks again for what the first 64 KB hold of it).
    const fetched = asked.reduce((sum, [a, b]) => sum + b - a + 1, 0)
    expect(fetched).toBeLessThanOrEqual(file.byteLength)
    // The start's second read asks only for its own 5 s.
    expect(asked[0][1] - asked[0][0] + 1).toBeLessThanOrEqual(5 * RATE * 2)
  }, 60_000)

  it('reads from a seek’s position, not from what was fetched ahead of the old one', async () => {
    const { asked, pcm } = source()
    pcm.seek(0)
    await readOn(pcm, 20)
    const before = asked.length
    const at = pcm.seek(40)
    const played = await readOn(pcm, 10)
    expect(same(played, whole.subarray(at * RATE, at * RATE + played.length))).toBe(true)
    expect(asked[before][0]).toBe(layout.dataOffset + 40 * RATE * 2)
  }, 60_000)
})
