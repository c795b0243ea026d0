import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createWebAudioOutput } from '@renderer/services/player/audio/output'
import { prepareChunksInPage } from '@renderer/services/player/audio/chunk-client'
import { FakeAudioContext } from './audio-context-fake'
import { pcmWav } from './wav-bytes'

/**
 * The loudness analysis of a song starts from the first bytes the player fetched to open it: the
 * song's header is asked of the data source once, not once for playing and again for measuring.
 */

// The Worker stubbed below is the loudness worker's: the player's chunks are prepared in the page.
prepareChunksInPage()

const RATE = 8000
const SECONDS = 4
const SONG = 'cadence-media://song/test/loud?br=320000'

const wav = () => pcmWav(RATE, 1, SECONDS * RATE, (f) => Math.round(0.25 * 32768 * Math.sin(f / 3)))
let file = wav()
/** The most bytes the fake source answers to one range (a server may answer fewer than asked). */
let answerAtMost = Infinity

/** The Range header of each media request. */
let ranges: string[] = []
async function fakeFetch(url: string | URL | Request, init?: RequestInit): Promise<Response> {
  const range = (init?.headers as Record<string, string> | undefined)?.Range ?? ''
  ranges.push(range)
  if (String(url) !== SONG) return { ok: false, status: 404, body: null } as Response
  const match = /bytes=(\d+)-(\d*)/.exec(range)
  const start = match ? Number(match[1]) : 0
  const end = Math.min(
    file.byteLength - 1,
    match?.[2] ? Number(match[2]) : file.byteLength - 1,
    start + answerAtMost - 1,
  )
  const headers = new Headers({ 'content-range': `bytes ${start}-${end}/${file.byteLength}` })
  return { ok: true, status: 206, headers, arrayBuffer: async () => file.slice(start, end + 1) } as Response
}

/** The loudness worker: records what the page sends and answers a measurement at the end. */
const sent: Array<{ type: string; layout?: { frames: number }; bytes?: ArrayBuffer }> = []
class FakeWorker {
  onmessage: ((event: MessageEvent) => void) | null = null
  onerror: (() => void) | null = null
  postMessage(message: { type: string }) {
    sent.push(message)
    if (message.type === 'end')
      queueMicrotask(() =>
        this.onmessage?.({
          data: { type: 'result', measured: { integrated: -20, truePeak: -6 } },
        } as MessageEvent),
      )
  }
}

beforeEach(() => {
  vi.stubGlobal('Worker', FakeWorker)
  ranges = []
  sent.length = 0
  file = wav()
  answerAtMost = Infinity
  localStorage.clear()
})
afterEach(() => {
  vi.unstubAllGlobals()
  document.body.innerHTML = ''
})

/** Plays the song until the page has sent the loudness worker all it measures. */
async function playUntilMeasured() {
  const context = new FakeAudioContext(RATE)
  const output = createWebAudioOutput({
    fetch: fakeFetch as typeof fetch,
    createContext: () => context as unknown as AudioContext,
    loudnessTarget: () => '-14',
  })
  output.load(SONG)
  await output.play()
  await expect.poll(() => sent.some((message) => message.type === 'end'), { timeout: 5000 }).toBe(true)
  return output
}

describe('the loudness analysis', () => {
  it('reads the header the player already fetched instead of fetching the same 64 KB again', async () => {
    await playUntilMeasured()
    // Measured from the same layout the player read: the whole song.
    expect(sent.find((message) => message.type === 'start')?.layout?.frames).toBe(SECONDS * RATE)
    expect(ranges.filter((range) => range === 'bytes=0-65535')).toHaveLength(1)
    // And stored, so the song is not measured again.
    await expect
      .poll(() => localStorage.getItem('cadence.loudness.test:loud'), { timeout: 5000 })
      .toContain('-20')
  }, 20_000)

  it('measures every sample when the source answers a range with fewer bytes than asked', async () => {
    // 60 s at 8 kHz: 960 KB of samples, one step of the measuring, past the player's first 64 KB.
    file = pcmWav(RATE, 1, 60 * RATE, (f) => Math.round(0.25 * 32768 * Math.sin(f / 3)))
    answerAtMost = 100_000
    const output = await playUntilMeasured()
    const chunks = sent.filter((message) => message.type === 'chunk').map((message) => message.bytes!)
    const measured = new Uint8Array(chunks.reduce((sum, bytes) => sum + bytes.byteLength, 0))
    chunks.reduce((at, bytes) => (measured.set(new Uint8Array(bytes), at), at + bytes.byteLength), 0)
    // The samples as the file holds them, in order, none skipped and none twice.
    expect(measured.byteLength).toBe(60 * RATE * 2)
    const samples = new Uint8Array(file, 44)
    expect(measured.findIndex((byte, i) => byte !== samples[i])).toBe(-1)
    output.pause()
  }, 20_000)
})
