import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createWebAudioOutput } from '@renderer/services/player/audio/output'
import type { WebAudioOutput } from '@renderer/services/player/audio/output'
import type { SongPair } from '@renderer/services/player/audio/gapless'
import { FakeAudioContext, FakeSource } from './audio-context-fake'
import { pcmWav } from './wav-bytes'

/**
 * The Web Audio output against a recording audio context (`audio-context-fake.ts`): what is heard when,
 * for gapless, crossfade and speed. Each song is a constant level, so what is heard tells which song
 * plays: A 0.25, B 0.5, C −0.25.
 */

const RATE = 8000
const SONG_SECONDS = 30
const A = 'cadence-media://song/test/1'
const B = 'cadence-media://song/test/2'
const C = 'cadence-media://song/test/3'
const LEVEL: Record<string, number> = { [A]: 0.25, [B]: 0.5, [C]: -0.25 }
const OTHER_ALBUMS: SongPair = { current: { albumId: 1 }, next: { albumId: 2 } }

/** A mono 16-bit WAV file at one level, or at the level `level(second)` for each frame. */
function wav(level: number | ((second: number) => number), seconds = SONG_SECONDS): ArrayBuffer {
  return pcmWav(RATE, 1, seconds * RATE, (f) =>
    Math.round((typeof level === 'number' ? level : level(f / RATE)) * 32768),
  )
}

const files = new Map(Object.entries(LEVEL).map(([url, level]) => [url, wav(level)]))
/** Not WAV: decoded whole by the (fake) browser, 12 s at 0.75. */
const OTHER = 'cadence-media://song/test/4'
LEVEL[OTHER] = 0.75
files.set(OTHER, new TextEncoder().encode('0.75 12').buffer)

/** A song whose samples say where they are: 1/100 of their position (s), to the frame. */
const POSITIONS = 'cadence-media://song/test/5'
files.set(
  POSITIONS,
  wav((second) => second / 100),
)

/** While set, every media request waits for it (a slow data source). */
let held: Promise<void> | undefined
/** Media requests made. */
let requests = 0

/** The media scheme: byte ranges of the files above. */
async function fakeFetch(url: string | URL | Request, init?: RequestInit): Promise<Response> {
  requests++
  if (held) await held
  const file = files.get(String(url))
  const range = (init?.headers as Record<string, string> | undefined)?.Range ?? ''
  const match = /bytes=(\d+)-(\d*)/.exec(range)
  if (!file) return { ok: false, status: 404, body: null } as Response
  const start = match ? Number(match[1]) : 0
  const end = Math.min(file.byteLength - 1, match?.[2] ? Number(match[2]) : file.byteLength - 1)
  const headers = new Headers({ 'content-range': `bytes ${start}-${end}/${file.byteLength}` })
  return { ok: true, status: 206, headers, arrayBuffer: async () => file.slice(start, end + 1) } as Response
}

let context: FakeAudioContext
let output: WebAudioOutput
let crossfade = 0
let events: string[]

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
  context = new FakeAudioContext(RATE)
  crossfade = 0
  events = []
  held = undefined
  requests = 0
  output = createWebAudioOutput({
    fetch: fakeFetch as typeof fetch,
    createContext: () => context as unknown as AudioContext,
    loudnessTarget: () => 'off',
    crossfadeSeconds: () => crossfade,
  })
  for (const type of ['ended', 'playing', 'pause'] as const)
    output.on(type, () => events.push(`${type} ${output.src.slice(-1)}`))
})
afterEach(() => {
  vi.useRealTimers()
  document.body.innerHTML = ''
})

/** Moves the audio clock and the timers on together, 10 ms at a time. */
async function advance(seconds: number) {
  for (let i = 0; i < Math.round(seconds / 0.01); i++) {
    context.currentTime = Math.round((context.currentTime + 0.01) * 1e6) / 1e6
    await vi.advanceTimersByTimeAsync(10)
  }
}

/** Which songs are heard at `t`, with the gain each reaches the device with. */
function heard(t: number): Array<{ song: string; gain: number }> {
  return context.heard(t).map(({ sample, gain }) => ({
    song:
      Object.keys(LEVEL)
        .find((url) => Math.abs(LEVEL[url] - sample) < 0.01)
        ?.slice(-1) ?? String(sample),
    gain: Math.round(gain * 1000) / 1000,
  }))
}

/** Plays A from `from` s with B prepared next; the engine's part: on `ended`, B's address is set. */
async function playAThenB(from: number, songs = OTHER_ALBUMS) {
  output.load(A)
  output.on('ended', () => {
    if (output.src === A) output.load(B)
  })
  output.seek(from)
  await output.play()
  output.prepare(B, songs)
  await advance(0.05)
}

/** The clock time A's last frame ends, once it is scheduled. */
function endOf(level: number): number {
  const sources = context.sources.filter((s) => s.buffer && Math.abs(s.sampleAt(s.startTime!) - level) < 0.01)
  return Math.max(...sources.map((s) => Math.min(s.stopTime, s.startTime! + s.buffer!.duration)))
}
function startOf(level: number): number {
  const sources = context.sources.filter((s) => s.buffer && Math.abs(s.sampleAt(s.startTime!) - level) < 0.01)
  return Math.min(...sources.map((s) => s.startTime!))
}

describe('Web Audio output: fades', () => {
  /** The gain song A reaches the device with at `t` (0 when not heard). */
  const gainOfA = (t: number) => heard(t).find((h) => h.song === '1')?.gain ?? 0

  it('fades a pause out over 12 ms from full level, however long after the last fade', async () => {
    output.load(A)
    await output.play()
    await advance(5)
    const at = context.currentTime
    output.pause()
    expect(gainOfA(at)).toBe(1)
    expect(gainOfA(at + 0.006)).toBeCloseTo(0.5, 2)
    expect(gainOfA(at + 0.011)).toBeGreaterThan(0)
    expect(gainOfA(at + 0.013)).toBe(0)
    // Played again, then paused soon after: the same fade.
    await output.play()
    await advance(0.5)
    const again = context.currentTime
    output.pause()
    expect(gainOfA(again)).toBe(1)
    expect(gainOfA(again + 0.006)).toBeCloseTo(0.5, 2)
  })

  /** The gain `sources` reach the device with at `t`, together. */
  const gainOf = (sources: FakeSource[], t: number) =>
    Math.round(sources.filter((s) => s.playsAt(t)).reduce((sum, s) => sum + s.gainTo(t), 0) * 1000) / 1000

  /** Plays `url` for 5 s: the clock time then, and the sources scheduled so far. */
  async function playFor5Seconds(url = A) {
    output.load(url)
    await output.play()
    await advance(5)
    return { at: context.currentTime, old: context.sources.filter((s) => s.buffer) }
  }

  it('seeking while playing: the old position plays on until the new one is here, then they cross over 12 ms', async () => {
    const { at, old } = await playFor5Seconds()
    // Back, past the file's first 64 KB (kept from its opening): read again.
    output.seek(4.5)
    await advance(0.05)
    const jumped = context.sources.filter((s) => s.buffer && !old.includes(s))
    const start = Math.min(...jumped.map((s) => s.startTime!))
    // At the next frame once its first chunk is here (one 10 ms step of this test's clock).
    expect(start).toBeGreaterThanOrEqual(at)
    expect(start).toBeLessThanOrEqual(at + 0.01)
    expect(gainOf(old, start - 0.001)).toBe(1)
    expect(gainOf(old, start + 0.006)).toBeCloseTo(0.5, 2)
    expect(gainOf(jumped, start + 0.006)).toBeCloseTo(0.5, 2)
    expect(gainOf(old, start + 0.013)).toBe(0)
    expect(gainOf(jumped, start + 0.013)).toBe(1)
    expect(output.position).toBeCloseTo(4.5 + context.currentTime - start, 6)
    // The transport was not touched: a pause later still fades from full level.
    await advance(1)
    const pausedAt = context.currentTime
    output.pause()
    expect(gainOf(jumped, pausedAt + 0.006)).toBeCloseTo(0.5, 2)
  })

  it('seeking while playing: a new position that is slow to come fades the old one out in 60 ms, then fades in', async () => {
    const { at, old } = await playFor5Seconds()
    let release = () => undefined as void
    held = new Promise((resolve) => (release = resolve))
    output.seek(4.5)
    await advance(0.2)
    expect(gainOf(old, at + 0.059)).toBe(1)
    expect(gainOf(old, at + 0.066)).toBeCloseTo(0.5, 1)
    expect(gainOf(old, at + 0.073)).toBe(0)
    held = undefined
    release()
    await advance(0.05)
    const jumped = context.sources.filter((s) => s.buffer && !old.includes(s))
    const start = Math.min(...jumped.map((s) => s.startTime!))
    expect(start).toBeGreaterThan(at + 0.2)
    expect(gainOf(jumped, start + 0.006)).toBeCloseTo(0.5, 2)
    expect(gainOf(jumped, start + 0.013)).toBe(1)
    expect(gainOf(old, start)).toBe(0)
  })

  it('seeking forward within what is read ahead reads nothing: the same buffers, from the new position', async () => {
    const { at, old } = await playFor5Seconds(POSITIONS)
    const asked = requests
    output.seek(12.5)
    expect(requests).toBe(asked)
    const jumped = context.sources.filter((s) => s.buffer && !old.includes(s))
    expect(Math.min(...jumped.map((s) => s.startTime!))).toBe(at)
    // The old position fades out and the new one in over 12 ms from the next frame, then the new alone.
    expect(gainOf(old, at + 0.006)).toBeCloseTo(0.5, 2)
    expect(gainOf(jumped, at + 0.006)).toBeCloseTo(0.5, 2)
    const sample = (t: number) => jumped.find((s) => s.playsAt(t))!.sampleAt(t) * 100
    for (const t of [at, at + 0.5, at + 3, at + 7.4]) expect(sample(t)).toBeCloseTo(12.5 + t - at, 2)
    expect(output.position).toBeCloseTo(12.5, 3)
    // Reading goes on where it was: the song plays on past what was read ahead, with no seam.
    await advance(12)
    const now = context.currentTime
    expect(output.position).toBeCloseTo(12.5 + now - at, 3)
    const playing = context.sources.filter((s) => s.buffer && s.playsAt(now))
    expect(playing).toHaveLength(1)
    expect(playing[0].sampleAt(now) * 100).toBeCloseTo(12.5 + now - at, 2)
    // Read on to the song's end (the chunk worker prepares a read ahead of the page's asking: it may
    // have read it all before the seek).
    const end = at + output.duration - 12.5
    expect(context.sources.some((s) => s.buffer && s.playsAt(end - 0.1))).toBe(true)
  })

  it('a seek while the last one still crosses over goes on from the level reached: no jump, no sum over 1', async () => {
    const { at } = await playFor5Seconds(POSITIONS)
    output.seek(8)
    context.currentTime = at + 0.005
    output.seek(11)
    const level = (t: number) =>
      gainOf(
        context.sources.filter((s) => s.buffer),
        t,
      )
    for (let t = at; t < at + 0.04; t += 0.0005) {
      expect(level(t)).toBeLessThanOrEqual(1.001)
      expect(Math.abs(level(t + 0.0005) - level(t))).toBeLessThan(0.06)
    }
    expect(level(at + 0.04)).toBe(1)
  })

  it('a second seek before the first is here fades the transport, then plays the last position at full level', async () => {
    output.load(A)
    await output.play()
    await advance(5)
    const old = context.sources.filter((s) => s.buffer)
    output.seek(20)
    output.seek(10)
    await advance(0.1)
    const now = context.currentTime
    const playing = context.sources.filter((s) => s.buffer && !old.includes(s) && s.playsAt(now))
    expect(gainOf(playing, now)).toBe(1)
    expect(gainOf(old, now)).toBe(0)
    expect(output.position).toBeGreaterThan(10)
    expect(output.position).toBeLessThan(10.1)
  })

  it('fades the song out from full level when another is loaded while it plays', async () => {
    output.load(A)
    await output.play()
    await advance(5)
    const at = context.currentTime
    output.load(B)
    expect(gainOfA(at)).toBe(1)
    // The transport's fade and the song's own, both linear over 12 ms: half of half at the middle.
    expect(gainOfA(at + 0.006)).toBeCloseTo(0.25, 2)
    expect(gainOfA(at + 0.013)).toBe(0)
  })
})

describe('Web Audio output: the clock of a new song', () => {
  it('is where the song will start until its first chunk is scheduled, also when paused before that', async () => {
    output.load(A)
    await output.play()
    await advance(5)
    output.load(B)
    const starting = output.play()
    // Not the context's own time (5 s): the song has not begun.
    expect(output.position).toBe(0)
    output.pause()
    await starting
    expect(output.position).toBe(0)
    await output.play()
    await advance(1)
    expect(output.position).toBeGreaterThan(0.9)
    expect(output.position).toBeLessThan(1.1)
  })
})

describe('Web Audio output: when a start is heard', () => {
  it('plays from the next frame the context renders', async () => {
    context.currentTime = 2
    output.load(A)
    await output.play()
    // No lead: the context's clock is the first frame of its next render (a lead only delays the sound).
    expect(startOf(0.25)).toBe(2)
  })

  it('schedules a start again when a render passed its time first: not heard late, its chunks joined', async () => {
    context.currentTime = 2
    const render = 512 / RATE
    const start = FakeSource.prototype.start
    let renders = 1
    const spy = vi.spyOn(FakeSource.prototype, 'start').mockImplementation(function (this: FakeSource, at) {
      start.call(this, at)
      // The graph renders a device buffer between the clock being read and the start reaching it (a
      // chunk of an earlier test's song, on its own context, still arriving does not count).
      if (this.context === context && renders-- > 0) context.currentTime = 2 + render
    })
    try {
      output.load(A)
      await output.play()
      await advance(1)
    } finally {
      spy.mockRestore()
    }
    const played = context.sources.filter((s) => s.buffer && s.stopTime > s.startTime!)
    expect(Math.min(...played.map((s) => s.startTime!))).toBeCloseTo(2 + render, 9)
    // Nothing before (the first scheduling never plays), then one continuous song: one chunk at a time.
    expect(heard(2 + render / 2)).toEqual([])
    for (let t = 2 + render + 0.02; t < 2.9; t += 0.01) expect(heard(t)).toEqual([{ song: '1', gain: 1 }])
    const face = document.querySelector<HTMLElement>('[data-testid="player-audio"]')!
    expect(face.dataset.lateStarts).toBe('1')
    expect(face.dataset.underruns).toBeUndefined()
  })
})

describe('Web Audio output: gapless', () => {
  it('starts the next song on the frame where the current one ends, with no fade, when crossfade is off', async () => {
    await playAThenB(26)
    await advance(4.5)
    const end = endOf(0.25)
    expect(startOf(0.5)).toBeCloseTo(end, 9)
    expect(heard(end - 0.5 / RATE)).toEqual([{ song: '1', gain: 1 }])
    expect(heard(end + 0.5 / RATE)).toEqual([{ song: '2', gain: 1 }])
    expect(events).toEqual(['playing 1', 'pause 1', 'ended 1', 'playing 2'])
    expect(output.position).toBeCloseTo(context.currentTime - end, 2)
  })

  it('is gapless between consecutive tracks of one album even with a crossfade set', async () => {
    crossfade = 2
    await playAThenB(26, { current: { albumId: 5, trackNumber: 1 }, next: { albumId: 5, trackNumber: 2 } })
    await advance(4.5)
    expect(startOf(0.5)).toBeCloseTo(endOf(0.25), 9)
  })
})

describe('Web Audio output: crossfade', () => {
  /** A at 20 s with a 2 s crossfade into B: answers the clock time A ends. */
  async function intoCrossfade(): Promise<number> {
    crossfade = 2
    await playAThenB(20)
    await advance(8.3)
    const end = endOf(0.25)
    expect(context.currentTime).toBeGreaterThan(end - 2)
    expect(output.src).toBe(B)
    return end
  }

  it('starts the next song the crossfade before the end, equal-power, and the engine moves on then', async () => {
    crossfade = 2
    await playAThenB(20)
    await advance(6)
    const end = endOf(0.25)
    expect(startOf(0.5)).toBeCloseTo(end - 2, 9)
    expect(heard(end - 2.5)).toEqual([{ song: '1', gain: 1 }])
    // Halfway: each at −3 dB (cos and sin of a quarter turn's half).
    expect(heard(end - 1)).toEqual([
      { song: '1', gain: 0.707 },
      { song: '2', gain: 0.707 },
    ])
    expect(output.src).toBe(A)
    await advance(end - 2 - context.currentTime + 0.3)
    // `ended` when B came in: the engine set B, adopted while A plays out under its fade.
    expect(events).toEqual(['playing 1', 'pause 1', 'ended 1', 'playing 2'])
    expect(output.src).toBe(B)
    expect(output.position).toBeGreaterThan(0.2)
    expect(output.position).toBeLessThan(0.6)
    expect(document.querySelector<HTMLElement>('[data-testid="player-audio"]')!.dataset.crossfade).toBe('2')
    await advance(2)
    expect(heard(end + 0.01)).toEqual([{ song: '2', gain: 1 }])
    expect(
      document.querySelector<HTMLElement>('[data-testid="player-audio"]')!.dataset.crossfade,
    ).toBeUndefined()
  })

  it('skipping during a crossfade stops both songs: only the new one is heard', async () => {
    const end = await intoCrossfade()
    output.pause()
    output.load(C)
    await output.play()
    await advance(0.1)
    for (const t of [context.currentTime, end - 0.2, end + 1])
      expect(heard(t)).toEqual([{ song: '3', gain: 1 }])
  })

  it('pausing during a crossfade lets the old song go; play resumes the new one at full level', async () => {
    const end = await intoCrossfade()
    const at = output.position
    output.pause()
    await advance(0.05)
    expect(heard(context.currentTime)).toEqual([])
    await output.play()
    await advance(0.1)
    expect(output.position).toBeCloseTo(at + 0.1, 1)
    for (const t of [context.currentTime, end - 0.2, end + 1])
      expect(heard(t)).toEqual([{ song: '2', gain: 1 }])
  })

  it('seeking during a crossfade lets the old song go and plays the new one from there', async () => {
    const end = await intoCrossfade()
    output.seek(10)
    await advance(0.1)
    expect(output.position).toBeCloseTo(10.09, 1)
    for (const t of [context.currentTime, end - 0.2, end + 1])
      expect(heard(t)).toEqual([{ song: '2', gain: 1 }])
  })
})

describe('Web Audio output: a file decoded whole', () => {
  it('plays from memory in chunks: stretched at a speed, and gapless into the next song', async () => {
    output.setSpeed(2)
    output.load(OTHER)
    output.on('ended', () => void output.load(B))
    await output.play()
    output.prepare(B, OTHER_ALBUMS)
    await advance(1)
    expect(output.position).toBeCloseTo(2 * (context.currentTime - startOf(0.75)), 1)
    expect(heard(context.currentTime)).toEqual([{ song: '4', gain: 1 }])
    // 12 s at 2×: 6 s of the clock, to the frame, then B.
    await advance(5.5)
    const end = endOf(0.75)
    expect((end - startOf(0.75)) * RATE).toBeCloseTo(6 * RATE, 6)
    expect(startOf(0.5)).toBeCloseTo(end, 9)
    expect(output.src).toBe(B)
  })
})

describe('Web Audio output: a read that fails while playing', () => {
  it('reports the element’s error once (the engine recovers from there), not a stall in silence', async () => {
    const errors: number[] = []
    output.on('error', () => errors.push(output.error!.code))
    // Two minutes: what was fetched ahead at the start (up to 30 s past the first 20 s) plays on.
    files.set(A, wav(LEVEL[A], 120))
    output.load(A)
    await output.play()
    await advance(0.2)
    // From now on every range of A is refused, as a data source that went away refuses it.
    files.delete(A)
    try {
      // The reads after the bytes fetched ahead fail; what was read plays to its end, then the error.
      await advance(60)
      // The media scheme's 404 (the song is not there any more): MEDIA_ERR_SRC_NOT_SUPPORTED.
      expect(errors).toEqual([4])
      expect(output.paused).toBe(true)
    } finally {
      files.set(A, wav(LEVEL[A]))
    }
  })
})

describe('Web Audio output: speed', () => {
  it('plays song seconds faster than the clock at 1.5×, and ends when the stretched song does', async () => {
    output.setSpeed(1.5)
    output.load(A)
    await output.play()
    const start = context.currentTime
    await advance(2)
    expect(output.position).toBeCloseTo((context.currentTime - start) * 1.5, 1)
    output.seek(25)
    await advance(0.05)
    const from = context.currentTime
    // 5 song seconds take 3.33 s of the clock: the output's frames are the input's over the speed.
    const end = endOf(0.25)
    expect(end - startOf(0.25)).toBeGreaterThan(3.3)
    const after = context.sources.filter((s) => s.startTime! >= from - 0.05 && s.stopTime > from)
    const frames = after.reduce((total, s) => total + s.buffer!.length - Math.round(s.offset * RATE), 0)
    expect(frames).toBe(Math.round((5 * RATE) / 1.5))
    expect(heard((from + end) / 2)).toEqual([{ song: '1', gain: 1 }])
    await advance(end - context.currentTime - 0.1)
    expect(events).not.toContain('ended 1')
    await advance(0.4)
    expect(events).toContain('ended 1')
    expect(output.position).toBe(SONG_SECONDS)
  })

  it('changes speed while playing without a gap, a dip or a jump in position', async () => {
    output.load(A)
    await output.play()
    await advance(2)
    const asked = context.currentTime
    const before = output.position
    output.setSpeed(2)
    await advance(0.01)
    // The old rendering plays until the new one takes over, then they cross over 30 ms.
    let last = before
    for (let i = 0; i < 60; i++) {
      const t = context.currentTime
      const parts = heard(t)
      expect(parts.every((part) => part.song === '1')).toBe(true)
      expect(parts.reduce((total, part) => total + part.gain, 0)).toBeCloseTo(1, 2)
      expect(output.position).toBeGreaterThanOrEqual(last)
      last = output.position
      await advance(0.01)
    }
    const switched = context.currentTime
    await advance(1)
    expect(output.position - last).toBeCloseTo(2 * (context.currentTime - switched), 1)
    expect(output.position).toBeCloseTo(
      before + (0.2 + 0.01) * 1 + (context.currentTime - asked - 0.21) * 2,
      1,
    )
  })

  it('plans the following song again at the new end after a speed change', async () => {
    await playAThenB(20)
    // The output's next tick (once a second) plans B.
    await advance(1.1)
    const oldEnd = endOf(0.25)
    expect(startOf(0.5)).toBeCloseTo(oldEnd, 9)
    output.setSpeed(2)
    await advance(6)
    const end = endOf(0.25)
    expect(end).toBeLessThan(oldEnd - 4)
    expect(startOf(0.5)).toBeCloseTo(end, 9)
    // The B planned for the old end is not heard: one B, mid-song.
    expect(heard(oldEnd + 0.01)).toEqual([{ song: '2', gain: 1 }])
    expect(output.src).toBe(B)
    expect(output.speed).toBe(2)
  })
})

describe('Web Audio output: the device opened ahead of the first play', () => {
  it('makes the context, waits for its clock to run, then lets it rest while nothing plays', async () => {
    output.warm()
    expect(context.state).toBe('running')
    // The device has not started yet (the clock stands still): not suspended, so it can start.
    await vi.advanceTimersByTimeAsync(500)
    expect(context.state).toBe('running')
    await advance(0.05)
    expect(context.state).toBe('suspended')
    // The first Play resumes it and is heard.
    output.load(A)
    await output.play()
    expect(context.state).toBe('running')
    await advance(0.1)
    expect(heard(context.currentTime).map((h) => h.song)).toEqual(['1'])
  })

  it('leaves a context alone that is already playing when the clock starts', async () => {
    output.warm()
    output.load(A)
    await output.play()
    await advance(0.2)
    expect(context.state).toBe('running')
    expect(heard(context.currentTime).map((h) => h.song)).toEqual(['1'])
  })
})

describe('Web Audio output: the position announced', () => {
  it('says timeupdate once a second while playing (when the whole second changes), not at each tick', async () => {
    let updates = 0
    output.on('timeupdate', () => updates++)
    output.load(A)
    await output.play()
    await advance(0.5)
    const before = updates
    await advance(4)
    // 0.5 s → 4.5 s on the song: seconds 1, 2, 3 and 4 begin (16 ticks of 250 ms).
    expect(updates - before).toBe(4)
    // After a seek too: 2 s of song, two or three whole seconds begun (not eight ticks).
    output.seek(10.3)
    await advance(0.5)
    const afterSeek = updates
    await advance(2)
    expect(updates - afterSeek).toBeGreaterThanOrEqual(2)
    expect(updates - afterSeek).toBeLessThanOrEqual(3)
  })
})

describe('Web Audio output: a press wakes the device for its play', () => {
  it("a press just after a pause keeps the context running (the pause's suspend would come first)", async () => {
    output.load(A)
    await output.play()
    await advance(1)
    output.pause()
    // The next row pressed while the pause's fade drains: its play finds the device running.
    output.press(B, true)
    await advance(1.5)
    expect(context.state).toBe('running')
    output.load(B)
    await output.play()
    await advance(0.2)
    expect(heard(context.currentTime).map((h) => h.song)).toEqual(['2'])
  })

  it('a press with no play lets the device rest again, counted from the last press', async () => {
    output.warm()
    await advance(0.1)
    expect(context.state).toBe('suspended')
    output.press(A, true)
    await advance(0.05)
    expect(context.state).toBe('running')
    await advance(1.5)
    output.press(B, true)
    await advance(1.5)
    expect(context.state).toBe('running')
    await advance(0.6)
    expect(context.state).toBe('suspended')
  })
})
