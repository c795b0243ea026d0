import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { prepareChunksInPage } from '@renderer/services/player/audio/chunk-client'
import { createWebAudioOutput } from '@renderer/services/player/audio/output'
import type { WebAudioOutput } from '@renderer/services/player/audio/output'
import { FakeAudioContext, FakeSource } from './audio-context-fake'
import { pcmWav } from './wav-bytes'

/**
 * The Web Audio output's read-ahead after a start, against a recording audio context
 * (`audio-context-fake.ts`) and a data source whose ranges arrive as a real one's do: after a fixed
 * latency, then at a bounded rate, both on the audio clock. A chunk must reach the graph before its time:
 * one started after it is heard late (a gap), and the output counts it (`data-underruns`).
 */

prepareChunksInPage()

const RATE = 8000
const SONG_SECONDS = 60
const SONG = 'cadence-media://song/test/1'
/** A range arrives this long after it is asked (clock seconds; 0.1 s unless a test says)... */
let latency = 0.1
/** ...and then at 20 times the song's own byte rate (16-bit mono). */
const BYTES_PER_SECOND = RATE * 2 * 20

/** A mono 16-bit WAV file at one level. */
const wav = (level: number, seconds: number) =>
  pcmWav(RATE, 1, seconds * RATE, () => Math.round(level * 32768))

const file = wav(0.25, SONG_SECONDS)

let context: FakeAudioContext
let output: WebAudioOutput
/** Ranges on their way: each answered once the clock reaches `due`. */
let arriving: Array<{ due: number; answer: () => void }>
/** Each chunk's start: its clock time, and the clock when it was asked. */
let starts: Array<{ at: number; asked: number }>

/** The media scheme: byte ranges of the song, each arriving after its latency and transfer. */
function slowFetch(url: string | URL | Request, init?: RequestInit): Promise<Response> {
  const range = (init?.headers as Record<string, string> | undefined)?.Range ?? ''
  const match = /bytes=(\d+)-(\d*)/.exec(range)
  if (String(url) !== SONG) return Promise.resolve({ ok: false, status: 404, body: null } as Response)
  const start = match ? Number(match[1]) : 0
  const end = Math.min(file.byteLength - 1, match?.[2] ? Number(match[2]) : file.byteLength - 1)
  const headers = new Headers({ 'content-range': `bytes ${start}-${end}/${file.byteLength}` })
  const response = {
    ok: true,
    status: 206,
    headers,
    arrayBuffer: async () => file.slice(start, end + 1),
  } as Response
  const due = context.currentTime + latency + (end + 1 - start) / BYTES_PER_SECOND
  return new Promise((answer) => arriving.push({ due, answer: () => answer(response) }))
}

/** Moves the audio clock and the timers on together, 10 ms at a time, answering the ranges due. */
async function advance(seconds: number) {
  for (let i = 0; i < Math.round(seconds / 0.01); i++) {
    context.currentTime = Math.round((context.currentTime + 0.01) * 1e6) / 1e6
    const due = arriving.filter((range) => range.due <= context.currentTime + 1e-9)
    arriving = arriving.filter((range) => !due.includes(range))
    for (const range of due) range.answer()
    await vi.advanceTimersByTimeAsync(10)
  }
}

/** Every chunk started after its time so far (the clock had passed it when it was scheduled). */
const late = () => starts.filter((start) => start.at < start.asked - 1e-9)
const underruns = () =>
  (document.querySelector('[data-testid="player-audio"]') as HTMLElement).dataset.underruns

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
  context = new FakeAudioContext(RATE)
  arriving = []
  starts = []
  latency = 0.1
  const start = FakeSource.prototype.start
  vi.spyOn(FakeSource.prototype, 'start').mockImplementation(function (this: FakeSource, at, offset) {
    starts.push({ at, asked: context.currentTime })
    start.call(this, at, offset)
  })
  output = createWebAudioOutput({
    fetch: slowFetch as typeof fetch,
    createContext: () => context as unknown as AudioContext,
    loudnessTarget: () => 'off',
  })
})
afterEach(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
  document.body.innerHTML = ''
})

/** Opens the song, then plays it from `position` once it is open; answers once the play has begun. */
async function playFrom(position: number) {
  output.load(SONG)
  await advance(0.5)
  output.seek(position)
  const playing = output.play()
  await advance(0.5)
  await playing
}

describe('Web Audio output: read-ahead after a start', () => {
  it('schedules every chunk before its time after a start from the middle of a song', async () => {
    await playFrom(30)
    await advance(12)
    // Playing on, and well ahead: the read-ahead has grown to its full length.
    expect(output.paused).toBe(false)
    expect(output.position).toBeGreaterThan(42)
    expect(starts.length).toBeGreaterThan(3)
    expect(Math.max(...starts.map((start) => start.at)) - context.currentTime).toBeGreaterThan(10)
    expect(late()).toEqual([])
    expect(underruns()).toBeUndefined()
  })

  it('asks the bytes of the read after the first chunk with the first: in time when each request takes 0.3 s', async () => {
    // Longer than the first chunk plays (0.25 s): the second read's bytes cannot be asked after it.
    latency = 0.3
    await playFrom(30)
    await advance(8)
    expect(output.position).toBeGreaterThan(37)
    expect(starts.length).toBeGreaterThan(3)
    expect(late()).toEqual([])
    expect(underruns()).toBeUndefined()
  })

  it('schedules every chunk before its time after a seek while playing', async () => {
    await playFrom(2)
    await advance(3)
    starts = []
    output.seek(40)
    await advance(10)
    expect(output.position).toBeGreaterThan(48)
    expect(starts.length).toBeGreaterThan(3)
    expect(late()).toEqual([])
    expect(underruns()).toBeUndefined()
  })

  it('counts a chunk that comes after its time, and says how late and where in its rendering', async () => {
    await playFrom(0)
    await advance(3)
    // The source stalls for longer than what is scheduled and fetched ahead (steady ranges fetch up to
    // 30 s of the file): the next chunk comes after its time.
    latency = 40
    await advance(70)
    expect(Number(underruns())).toBeGreaterThan(0)
    const face = document.querySelector('[data-testid="player-audio"]') as HTMLElement
    const [lateMs, intoRun] = face.dataset.lateChunks!.split(' ')[0].split('@').map(Number)
    expect(late().length).toBeGreaterThan(0)
    expect(lateMs).toBeGreaterThan(1000)
    expect(intoRun).toBeGreaterThan(20)
  })
})
