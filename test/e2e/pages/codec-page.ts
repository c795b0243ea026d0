import { openCodecSource } from '@renderer/services/player/audio/codec-source'
import type { PcmSource } from '@renderer/services/player/audio/pcm-source'

/**
 * Runs in Chromium (bundled by `codec-source.test.ts`): decodes a served file with the streaming codec
 * source and with the browser's whole-file `decodeAudioData`, and says how they compare.
 */

interface Opened {
  source: PcmSource
  duration: number
}

/** Range requests the sources made after their first bytes. */
let reads = 0

async function open(url: string, rate: number): Promise<Opened | undefined> {
  const head = await fetch(url, { headers: { Range: 'bytes=0-65535' } })
  const size = Number(/\/(\d+)$/.exec(head.headers.get('content-range') ?? '')?.[1])
  const read = async (start: number, end: number) => {
    reads++
    return new Uint8Array(
      await (await fetch(url, { headers: { Range: `bytes=${start}-${end}` } })).arrayBuffer(),
    )
  }
  return openCodecSource({ head: new Uint8Array(await head.arrayBuffer()), size, read }, rate)
}

async function reference(url: string, rate: number): Promise<AudioBuffer> {
  const context = new OfflineAudioContext(2, 1, rate)
  return context.decodeAudioData(await (await fetch(url)).arrayBuffer())
}

/** Reads until the song ends, in reads of the given lengths (s) in turn. */
async function readAll(source: PcmSource, lengths: number[], limit = Number.POSITIVE_INFINITY) {
  const parts: Float32Array[] = []
  let total = 0
  for (let i = 0; total < limit; i++) {
    const read = await source.read(lengths[i % lengths.length], () => true)
    if (!read) throw new Error('read answered nothing')
    parts.push(read.samples[0])
    total += read.samples[0].length
    if (read.last) break
  }
  const joined = new Float32Array(total)
  let offset = 0
  for (const part of parts) {
    joined.set(part, offset)
    offset += part.length
  }
  return joined
}

/** The lag (samples) of `part` in `whole` near `expected` that matches best, and the largest difference there. */
function match(whole: Float32Array, part: Float32Array, expected: number, search: number) {
  const length = Math.min(part.length, 4096)
  let best = { lag: 0, error: Number.POSITIVE_INFINITY }
  for (let lag = -search; lag <= search; lag++) {
    const at = expected + lag
    if (at < 0 || at + length > whole.length) continue
    let error = 0
    for (let i = 0; i < length; i++) error += (whole[at + i] - part[i]) ** 2
    if (error < best.error) best = { lag, error }
  }
  let maxDiff = 0
  /** Where the first difference over 1e-3 is (-1: none), to say where a read went wrong. */
  let firstOff = -1
  const at = expected + best.lag
  for (let i = 0; i < part.length && at + i < whole.length; i++) {
    const diff = Math.abs(whole[at + i] - part[i])
    if (diff > 1e-3 && firstOff < 0) firstOff = i
    maxDiff = Math.max(maxDiff, diff)
  }
  return { lag: best.lag, maxDiff, firstOff }
}

export async function decodeWhole(url: string, rate: number, lengths: number[]) {
  const opened = await open(url, rate)
  if (!opened) return undefined
  const ref = await reference(url, rate)
  const whole = ref.getChannelData(0)
  opened.source.seek(0)
  const ours = await readAll(opened.source, lengths)
  return {
    duration: opened.duration,
    refDuration: ref.duration,
    length: ours.length,
    refLength: whole.length,
    ...match(whole, ours, 0, 2048),
  }
}

export async function seekAndRead(url: string, rate: number, positions: number[]) {
  const opened = await open(url, rate)
  if (!opened) return undefined
  const whole = (await reference(url, rate)).getChannelData(0)
  const results = []
  for (const position of positions) {
    const exact = opened.source.seek(position)
    const ours = await readAll(opened.source, [0.25], rate)
    results.push({ position, exact, ...match(whole, ours, Math.round(exact * rate), Math.round(rate * 0.3)) })
  }
  return results
}

/** A seek while a read is still fetching: the old read answers nothing, the new one plays from the seek. */
export async function seekDuringRead(url: string, rate: number) {
  const opened = await open(url, rate)
  if (!opened) return undefined
  const whole = (await reference(url, rate)).getChannelData(0)
  opened.source.seek(0)
  const stale = opened.source.read(5, () => true)
  const exact = opened.source.seek(3)
  const fresh = await opened.source.read(0.5, () => true)
  return {
    stale: (await stale) === undefined,
    ...match(whole, fresh!.samples[0], Math.round(exact * rate), 64),
  }
}

declare global {
  interface Window {
    codec: {
      decodeWhole: typeof decodeWhole
      seekAndRead: typeof seekAndRead
      seekDuringRead: typeof seekDuringRead
      streamThrough: typeof streamThrough
      decodeWholeHeld: typeof decodeWholeHeld
      seekCost: typeof seekCost
    }
  }
}
window.codec = { decodeWhole, seekAndRead, seekDuringRead, streamThrough, decodeWholeHeld, seekCost }

/**
 * For `test/bench/codec-memory.ts`: reads the whole song as playback does (5 s at a time), holding only
 * the last `holdSeconds` of samples (the output's window ahead), at most `speed` times as fast as it
 * plays.
 */
export async function streamThrough(url: string, rate: number, holdSeconds: number, speed = Infinity) {
  const opened = await open(url, rate)
  if (!opened) return undefined
  const held: Float32Array[][] = []
  let total = 0
  const began = performance.now()
  opened.source.seek(0)
  for (;;) {
    const read = await opened.source.read(5, () => true)
    if (!read) break
    held.push(read.samples)
    total += read.samples[0].length
    while (held.reduce((sum, samples) => sum + samples[0].length, 0) > holdSeconds * rate) held.shift()
    if (read.last) break
    const due = (total / rate / speed) * 1000 - (performance.now() - began)
    if (due > 0) await new Promise((resolve) => setTimeout(resolve, due))
  }
  return { seconds: total / rate, ms: performance.now() - began }
}

/** For the bench: each seek's requests and time until its first 0.25 s is decoded. */
export async function seekCost(url: string, rate: number, positions: number[]) {
  const opened = await open(url, rate)
  if (!opened) return undefined
  return (async () => {
    const costs = []
    for (const position of positions) {
      const before = reads
      const began = performance.now()
      opened.source.seek(position)
      await opened.source.read(0.25, () => true)
      costs.push({ position, requests: reads - before, ms: performance.now() - began })
    }
    return costs
  })()
}

/** For the bench: the song decoded whole by the browser and held, as FLAC and MP3 played before. */
export async function decodeWholeHeld(url: string, rate: number) {
  const buffer = await new OfflineAudioContext(2, 1, rate).decodeAudioData(
    await (await fetch(url)).arrayBuffer(),
  )
  ;(window as unknown as { held: AudioBuffer }).held = buffer
  return buffer.length * buffer.numberOfChannels * 4
}
