import type { PlayerAudio } from './player-audio'
import { FADE_SECONDS, planFade } from './fades'
import type { FadePlan } from './fades'
import { PREPARE_AHEAD_SECONDS, shouldPrepareNext } from './gapless'
import { AHEAD_SECONDS, CHUNK_SECONDS } from './memory'
import { createResampler } from './resample'
import type { Resampler } from './resample'
import { decodeFrames, frameRange, parseWavHeader } from './wav'
import { chooseGainDb, dbToGain, DEFAULT_LOUDNESS_TARGET, gainRampSeconds } from '@shared/audio/gain'
import type { LoudnessTarget } from '@shared/audio/gain'
import { measureLoudness, storedLoudness } from './loudness'
import type { WavLayout } from './wav'

/**
 * The Web Audio output: what the engine drives in place of an `<audio>` element (same members, same
 * events), so the engine's decisions (resolving, skipping, recovery, sessions) stay as they were.
 *
 * - Songs are streamed from main's media scheme with `fetch` + Range in chunks, decoded here (WAV) and
 *   resampled to the context's rate with the phase carried across chunks; each chunk is an
 *   AudioBufferSourceNode started at its exact frame on the audio clock. At most `AHEAD_SECONDS` are
 *   decoded ahead of the playhead; played chunks are let go.
 * - Gapless: `prepare(url)` names the song that follows; near the end it is opened and its first frame
 *   scheduled on the frame where the current song's last one ends. When the engine then sets `src` to
 *   it, it is adopted, already playing.
 * - Loudness: each song's gain node plays it toward −14 LUFS from its measured EBU R128 loudness
 *   (`loudness.ts`: measured once in a worker, stored per source and song); an unmeasured song starts at
 *   a safe gain and is ramped once measured. The chain ends in a limiter.
 * - Pause, resume, seek and stop fade the transport gain over 12 ms on the audio clock; a pause stops
 *   the song at the fade's end (and suspends the context once the fade has been heard), play starts it
 *   again there under a fade in, as a seek does.
 * - A file that is not WAV is fetched whole and decoded by `decodeAudioData` (held whole: see
 *   docs/playback.md).
 */

export interface OutputOptions {
  /** Fetches a range of a media address (default: `fetch`, which Electron allows on the privileged scheme). */
  fetch?: typeof fetch
  createContext?: () => AudioContext
  /** The loudness target (default −14 LUFS). */
  loudnessTarget?: () => LoudnessTarget
}

type Listener = (event: Event) => void

/** First chunk small, so a click or a seek is heard at once; the rest in `CHUNK_SECONDS`. */
const FIRST_CHUNK_SECONDS = 0.25
/** How far ahead of "now" a new start is scheduled: room for the graph to pick it up. */
const START_LEAD_SECONDS = 0.01
const HEADER_BYTES = 64 * 1024
const TICK_MS = 250
/** How long a song that started on the previous one's last frame waits for the engine to take it. */
const ADOPT_GRACE_MS = 5000

interface Chunk {
  node: AudioBufferSourceNode
  /** Clock time its first frame plays. */
  at: number
  end: number
}

class MediaFailure extends Error {
  readonly code: number
  constructor(code: number, message: string) {
    super(message)
    this.code = code
  }
}

/** One song on the audio clock. */
class Track {
  layout?: WavLayout
  /** A whole decoded file (formats other than WAV). */
  whole?: AudioBuffer
  duration = Number.NaN
  /** Not scheduled: `play` starts it (from the pending position). */
  needsStart = true
  readonly output: GainNode
  private chunks: Chunk[] = []
  private resampler?: Resampler
  /** Next file frame to fetch, and the clock time its first output frame plays. */
  private cursor = 0
  private cursorTime = 0
  /** Output frames expected from the start frame to the end, and scheduled so far. */
  private expectedFrames = 0
  private scheduledFrames = 0
  /** File position (s) at clock time `originTime`: the clock ↔ position mapping. */
  originTime = 0
  originPosition = 0
  /** Clock time the last frame ends, once the last chunk is scheduled. */
  endTime: number | undefined
  private pumping: Promise<void> | undefined
  private epoch = 0
  /** The epoch of a start whose first chunk is not scheduled yet. */
  private starting: number | undefined
  readonly opened: Promise<void>
  /** The loudness gain applied (dB). */
  gainDb = 0
  disposed = false
  failed = false

  constructor(
    readonly url: string,
    private readonly context: AudioContext,
    destination: AudioNode,
    private readonly load: (url: string, range?: string) => Promise<Response>,
    private readonly onUnderrun: () => void = () => undefined,
  ) {
    this.output = context.createGain()
    this.output.connect(destination)
    this.opened = this.open()
    this.opened.catch(() => undefined)
  }

  private async open() {
    const answer = await this.load(this.url, `bytes=0-${HEADER_BYTES - 1}`)
    const head = await answer.arrayBuffer()
    const total = /\/(\d+)$/.exec(answer.headers.get('content-range') ?? '')?.[1]
    const size = total ? Number(total) : answer.status === 200 ? head.byteLength : undefined
    const layout = parseWavHeader(head, size)
    if (layout) {
      this.layout = layout
      this.duration = layout.frames / layout.sampleRate
      return
    }
    // Not WAV: the whole file, decoded by the browser.
    const whole =
      answer.status === 200 && size === head.byteLength
        ? head
        : await (await this.load(this.url)).arrayBuffer()
    try {
      this.whole = await this.context.decodeAudioData(whole)
    } catch {
      throw new MediaFailure(4, 'The audio format is not supported')
    }
    this.duration = this.whole.duration
  }

  /** Position (s) in the song the clock is at. */
  position(now: number): number {
    if (!Number.isFinite(this.duration)) return this.originPosition
    return Math.max(0, Math.min(this.duration, this.originPosition + Math.max(0, now - this.originTime)))
  }

  /**
   * Plays from `position` (s): what was scheduled stops at `stopAt`, and the first frame plays at
   * `when()`, asked once the first chunk is here (so a slow fetch never starts it in the past).
   * Answers that clock time, or undefined when a newer start overtook this one.
   */
  async startAt(position: number, stopAt: number, when: () => number): Promise<number | undefined> {
    this.needsStart = false
    this.stopChunks(stopAt)
    const epoch = this.epoch
    // No pump until the first chunk of this start is scheduled: it would fetch from the old cursor.
    this.starting = epoch
    try {
      return await this.startFrom(epoch, position, when)
    } finally {
      if (this.starting === epoch) this.starting = undefined
    }
  }

  private async startFrom(epoch: number, position: number, when: () => number): Promise<number | undefined> {
    await this.opened
    if (epoch !== this.epoch || this.disposed) return undefined
    this.endTime = undefined
    if (this.whole) {
      const at = when()
      const node = this.context.createBufferSource()
      node.buffer = this.whole
      node.connect(this.output)
      node.start(at, position)
      this.originTime = at
      this.originPosition = position
      const end = at + (this.whole.duration - position)
      this.chunks.push({ node, at, end })
      this.endTime = end
      return at
    }
    const layout = this.layout!
    const rate = this.context.sampleRate
    this.cursor = Math.min(layout.frames, Math.round(position * layout.sampleRate))
    this.originPosition = this.cursor / layout.sampleRate
    this.expectedFrames = Math.round(((layout.frames - this.cursor) * rate) / layout.sampleRate)
    this.scheduledFrames = 0
    this.resampler = createResampler(layout.sampleRate, rate, layout.channels)
    this.pumping = undefined
    const scheduled = await this.fill(epoch, FIRST_CHUNK_SECONDS, when)
    if (!scheduled) return undefined
    this.starting = undefined
    void this.pump()
    return this.originTime
  }

  /** Keeps `AHEAD_SECONDS` scheduled ahead of the clock. */
  pump(): Promise<void> {
    if (this.pumping || !this.layout || this.disposed || this.needsStart || this.starting !== undefined)
      return this.pumping ?? Promise.resolve()
    const epoch = this.epoch
    this.pumping = (async () => {
      try {
        while (
          !this.disposed &&
          epoch === this.epoch &&
          this.endTime === undefined &&
          this.cursorTime - this.context.currentTime < AHEAD_SECONDS
        ) {
          if (!(await this.fill(epoch, CHUNK_SECONDS))) break
        }
      } finally {
        if (epoch === this.epoch) this.pumping = undefined
      }
    })()
    return this.pumping
  }

  /** Fetches, decodes and schedules the next `seconds` of the song (the first chunk at `first()`). */
  private async fill(epoch: number, seconds: number, first?: () => number): Promise<boolean> {
    const layout = this.layout!
    const frames = Math.max(1, Math.round(seconds * layout.sampleRate))
    const { start, end } = frameRange(layout, this.cursor, frames)
    const bytes =
      end >= start
        ? await (await this.load(this.url, `bytes=${start}-${end}`)).arrayBuffer()
        : new ArrayBuffer(0)
    if (epoch !== this.epoch || this.disposed) return false
    const got = Math.floor(bytes.byteLength / layout.blockAlign)
    this.cursor += got
    const last = got === 0 || this.cursor >= layout.frames
    const decoded = decodeFrames(layout, bytes)
    let samples = this.resampler!.push(decoded)
    if (last && layout.sampleRate !== this.context.sampleRate) {
      // The resampler holds back the last input frames: push copies of the last one, keep what is owed.
      const lastValues = decoded.map((channel) => channel[channel.length - 1] ?? 0)
      const extra = this.resampler!.push(lastValues.map((value) => new Float32Array(4).fill(value)))
      const keep = Math.max(
        0,
        Math.min(extra[0].length, this.expectedFrames - this.scheduledFrames - samples[0].length),
      )
      samples = samples.map((channel, c) => {
        const joined = new Float32Array(channel.length + keep)
        joined.set(channel)
        joined.set(extra[c].subarray(0, keep), channel.length)
        return joined
      })
    }
    if (first) {
      this.cursorTime = first()
      this.originTime = this.cursorTime
    }
    const length = samples[0]?.length ?? 0
    if (length > 0) {
      const rate = this.context.sampleRate
      const buffer = this.context.createBuffer(layout.channels, length, rate)
      samples.forEach((channel, c) => buffer.copyToChannel(channel as Float32Array<ArrayBuffer>, c))
      const node = this.context.createBufferSource()
      node.buffer = buffer
      node.connect(this.output)
      // Every chunk starts on the frame after the previous one's last: one continuous signal.
      const at = this.originTime + this.scheduledFrames / rate
      // A chunk that arrives after its time is an underrun: it would be heard late (a stall).
      if (!first && at < this.context.currentTime) this.onUnderrun()
      node.start(at)
      this.scheduledFrames += length
      const chunk = { node, at, end: this.originTime + this.scheduledFrames / rate }
      this.chunks.push(chunk)
      node.onended = () => {
        node.disconnect()
        this.chunks = this.chunks.filter((item) => item !== chunk)
      }
      this.cursorTime = chunk.end
    }
    if (last) this.endTime = this.originTime + this.scheduledFrames / this.context.sampleRate
    return true
  }

  /** Stops every scheduled chunk at clock time `at` (after a fade) and forgets them. */
  stopChunks(at: number) {
    this.epoch++
    for (const { node } of this.chunks) {
      try {
        node.stop(Math.max(at, this.context.currentTime))
      } catch {
        // Already stopped.
      }
    }
    this.chunks = []
    this.pumping = undefined
  }

  dispose(at: number) {
    this.disposed = true
    this.stopChunks(at)
    const output = this.output
    setTimeout(() => output.disconnect(), Math.max(0, (at - this.context.currentTime) * 1000) + 50)
  }
}

export type WebAudioOutput = PlayerAudio & {
  /** The song that follows the current one when it ends: opened ahead and started on its last frame. */
  prepare(url: string | undefined): void
  readonly context: AudioContext
}

/** The Web Audio output, with a hidden element carrying its clock for end-to-end tests (`player-audio`). */
export function createWebAudioOutput(options: OutputOptions = {}): WebAudioOutput {
  const load = async (url: string, range?: string) => {
    const answer = await (options.fetch ?? fetch)(url, { headers: range ? { Range: range } : {} })
    if (!answer.ok) {
      await answer.body?.cancel().catch(() => undefined)
      throw new MediaFailure(answer.status === 404 ? 4 : 2, `HTTP ${answer.status}`)
    }
    return answer
  }
  const face = document.createElement('audio')
  face.hidden = true
  face.dataset.testid = 'player-audio'
  document.body.appendChild(face)

  /** Underruns so far, on the hidden element for the sound bench (`data-underruns`). */
  let underruns = 0
  const underrun = () => void (face.dataset.underruns = String(++underruns))
  let context: AudioContext | undefined
  let transport: GainNode
  let volumeNode: GainNode
  function graph(): AudioContext {
    if (context) return context
    context = options.createContext?.() ?? new AudioContext({ latencyHint: 'interactive' })
    const limiter = context.createDynamicsCompressor()
    limiter.threshold.value = -1
    limiter.knee.value = 0
    limiter.ratio.value = 20
    limiter.attack.value = 0.002
    limiter.release.value = 0.1
    volumeNode = context.createGain()
    transport = context.createGain()
    transport.gain.value = 0
    transport.connect(volumeNode).connect(limiter).connect(context.destination)
    return context
  }

  const listeners = new Map<string, Set<Listener>>()
  const emit = (type: string) => {
    const event = new Event(type)
    for (const listener of [...(listeners.get(type) ?? [])]) listener(event)
    // The hidden element fires them too, for tests and benches that listen there.
    face.dispatchEvent(new Event(type))
  }

  let current: Track | undefined
  let prepared: Track | undefined
  let nextUrl: string | undefined
  let src = ''
  let paused = true
  let ended = false
  /** Where a paused or unstarted song will start (s). */
  let pendingPosition = 0
  let error: MediaError | null = null
  let volume = 1
  let muted = false
  let generation = 0
  let suspendTimer: ReturnType<typeof setTimeout> | undefined
  let ticker: ReturnType<typeof setInterval> | undefined

  const now = () => graph().currentTime
  /** The next frame boundary at least `lead` from now. */
  const frameAfter = (lead: number) => {
    const rate = graph().sampleRate
    return Math.ceil((now() + lead) * rate) / rate
  }

  function applyFade(plan: FadePlan) {
    const gain = transport.gain
    for (const ramp of plan.ramps) {
      gain.cancelAndHoldAtTime(ramp.at)
      gain.linearRampToValueAtTime(ramp.to, ramp.at + ramp.seconds)
    }
  }

  function applyVolume() {
    if (!context) return
    volumeNode.gain.setTargetAtTime(muted ? 0 : volume * volume, context.currentTime, 0.01)
  }

  function fail(track: Track, failure: unknown) {
    // One error per song, as an element reports one (its open, play and seek may all see the failure).
    if (track !== current || track.disposed || track.failed) return
    track.failed = true
    const code = failure instanceof MediaFailure ? failure.code : 2
    error = { code, message: String((failure as Error)?.message ?? failure) } as MediaError
    paused = true
    stopTicker()
    emit('error')
  }

  function startTicker() {
    if (ticker) return
    ticker = setInterval(tick, TICK_MS)
  }
  function stopTicker() {
    clearInterval(ticker)
    ticker = undefined
  }

  function tick() {
    const track = current
    if (!track || paused) return
    void track.pump()
    emit('timeupdate')
    const clock = now()
    const remaining = (track.endTime ?? Number.POSITIVE_INFINITY) - clock
    if (
      nextUrl &&
      shouldPrepareNext(
        Number.isFinite(track.duration) ? track.duration - track.position(clock) : Infinity,
        !!prepared,
      )
    ) {
      if (track.endTime !== undefined || track.duration - track.position(clock) <= PREPARE_AHEAD_SECONDS)
        prepareNext(track)
    }
    if (track.endTime !== undefined && remaining <= 0) finish(track)
  }

  /**
   * The song's gain toward the loudness target: from its stored measurement, or the safe gain until it
   * is measured (in a worker), then ramped to the right one slowly enough not to be heard as a step.
   */
  function applyLoudness(track: Track) {
    const target = options.loudnessTarget?.() ?? DEFAULT_LOUDNESS_TARGET
    const stored = storedLoudness(track.url)
    track.gainDb = chooseGainDb(stored, target)
    track.output.gain.value = dbToGain(track.gainDb)
    if (stored || target === 'off' || !track.layout) return
    measureLoudness(track.url, load).then(
      (measured) => {
        if (!measured || track.disposed || !context) return
        const to = chooseGainDb(measured, target)
        const seconds = gainRampSeconds(track.gainDb, to)
        const gain = track.output.gain
        gain.cancelAndHoldAtTime(context.currentTime)
        gain.linearRampToValueAtTime(dbToGain(to), context.currentTime + Math.max(seconds, 0.05))
        track.gainDb = to
      },
      () => undefined,
    )
  }

  function prepareNext(track: Track) {
    if (!nextUrl || prepared || track.endTime === undefined) return
    const next = new Track(nextUrl, graph(), transport, load, underrun)
    prepared = next
    const at = track.endTime
    next.opened.then(
      () => applyLoudness(next),
      () => undefined,
    )
    next
      .startAt(0, at, () => at)
      .catch(() => {
        if (prepared === next) prepared = undefined
        next.dispose(now())
      })
  }

  function finish(track: Track) {
    if (track !== current || ended) return
    ended = true
    paused = true
    pendingPosition = track.duration
    emit('timeupdate')
    emit('pause')
    emit('ended')
    // The prepared song plays on; if the engine does not adopt it (it may first have to resolve the song
    // again, over IPC), it is stopped after a grace long enough for that.
    const next = prepared
    if (next) {
      setTimeout(() => {
        if (prepared === next && current !== next) {
          prepared = undefined
          next.dispose(now())
        }
      }, ADOPT_GRACE_MS)
    } else {
      stopTicker()
    }
  }

  function setSource(url: string) {
    generation++
    error = null
    ended = false
    pendingPosition = 0
    const old = current
    if (prepared && prepared.url === url && old && old.endTime !== undefined && now() >= old.endTime - 0.05) {
      // Gapless: the prepared song already started on the previous one's last frame.
      current = prepared
      prepared = undefined
      old.dispose(now())
      src = url
      paused = false
      // As an element does for a new source (the song is already playing).
      emit('durationchange')
      emit('loadedmetadata')
      emit('canplay')
      emit('play')
      emit('playing')
      startTicker()
      return
    }
    if (old) {
      const plan = planFade('stop', now())
      if (!paused) applyFade(plan)
      old.dispose(plan.cutAt ?? now())
    }
    if (prepared) {
      prepared.dispose(now())
      prepared = undefined
    }
    paused = true
    stopTicker()
    src = url
    if (!url) {
      current = undefined
      return
    }
    const track = new Track(url, graph(), transport, load, underrun)
    current = track
    const mine = generation
    track.opened.then(
      () => {
        applyLoudness(track)
        if (mine !== generation) return
        emit('durationchange')
        emit('loadedmetadata')
        emit('canplay')
      },
      (failure) => fail(track, failure),
    )
  }

  async function play(): Promise<void> {
    const track = current
    if (!track) throw new DOMException('The element has no supported sources.', 'NotSupportedError')
    if (error) throw new DOMException(error.message, 'NotSupportedError')
    clearTimeout(suspendTimer)
    if (!paused) return
    const mine = generation
    const context = graph()
    if (ended) {
      // As an element does: play after the end starts again from the beginning.
      ended = false
      pendingPosition = 0
      track.needsStart = true
    }
    paused = false
    emit('play')
    if (context.state !== 'running') await context.resume()
    if (mine !== generation || paused) return
    if (track.needsStart) {
      let at: number | undefined
      try {
        at = await track.startAt(pendingPosition, now(), () => frameAfter(START_LEAD_SECONDS))
      } catch (failure) {
        fail(track, failure)
        return
      }
      if (at === undefined || mine !== generation || paused) return
      applyFade(planFade('start', Math.max(now(), at)))
    } else {
      applyFade(planFade('resume', now()))
    }
    startTicker()
    emit('playing')
  }

  function pause() {
    if (paused) return
    paused = true
    const track = current
    const plan = planFade('pause', now())
    applyFade(plan)
    // The song stops where the fade ends and starts again from there on play. The context is suspended
    // only once the fade has left the output's buffer: suspending stops the device stream, and what was
    // still in its buffer (the fade itself) would be dropped, which is heard as a cut.
    if (track) {
      pendingPosition = track.position(now())
      track.stopChunks(plan.cutAt!)
      track.needsStart = true
    }
    if (prepared) {
      prepared.dispose(now())
      prepared = undefined
    }
    stopTicker()
    emit('timeupdate')
    emit('pause')
    const context = graph()
    const drained = FADE_SECONDS + context.baseLatency + (context.outputLatency || 0) + 0.2
    clearTimeout(suspendTimer)
    suspendTimer = setTimeout(() => {
      if (paused && context.state === 'running') void context.suspend()
    }, drained * 1000)
  }

  function seek(seconds: number) {
    const track = current
    const duration = track?.duration ?? Number.NaN
    const target = Math.max(0, Number.isFinite(duration) ? Math.min(seconds, duration) : seconds)
    pendingPosition = target
    ended = false
    if (prepared) {
      prepared.dispose(now())
      prepared = undefined
    }
    if (!track) return
    if (paused) {
      track.stopChunks(now())
      track.needsStart = true
      queueMicrotask(() => emit('seeked'))
      return
    }
    const mine = generation
    const plan = planFade('seek', now())
    applyFade(plan)
    emit('seeking')
    const cut = plan.cutAt!
    track
      .startAt(target, cut, () => Math.max(cut, frameAfter(START_LEAD_SECONDS)))
      .then((at) => {
        if (at === undefined || mine !== generation || paused) return
        applyFade(planFade('resume', Math.max(now(), at)))
        emit('seeked')
        emit('timeupdate')
      })
      .catch((failure) => fail(track, failure))
  }

  const output = {
    get src() {
      return src
    },
    set src(url: string) {
      setSource(url)
    },
    get currentTime() {
      const track = current
      if (!track || paused || !context) return pendingPosition
      return track.position(context.currentTime)
    },
    set currentTime(seconds: number) {
      seek(seconds)
    },
    get duration() {
      return current?.duration ?? Number.NaN
    },
    get paused() {
      return paused
    },
    get volume() {
      return volume
    },
    set volume(value: number) {
      volume = value
      applyVolume()
    },
    get muted() {
      return muted
    },
    set muted(value: boolean) {
      muted = value
      applyVolume()
    },
    get readyState() {
      return current && Number.isFinite(current.duration) ? 4 : 0
    },
    get error() {
      return error
    },
    get context() {
      return graph()
    },
    play,
    pause,
    load() {
      if (!src) setSource('')
    },
    removeAttribute(name: string) {
      if (name === 'src') setSource('')
    },
    addEventListener(type: string, listener: Listener) {
      const set = listeners.get(type) ?? new Set()
      listeners.set(type, set)
      set.add(listener)
    },
    removeEventListener(type: string, listener: Listener) {
      listeners.get(type)?.delete(listener)
    },
    prepare(url: string | undefined) {
      nextUrl = url
      if (prepared && prepared.url !== url) {
        prepared.dispose(now())
        prepared = undefined
      }
    },
  }
  // The hidden element shows the output's clock to end-to-end tests, as the old <audio> did.
  Object.defineProperties(face, {
    currentTime: { get: () => output.currentTime },
    paused: { get: () => output.paused },
    src: { get: () => output.src },
  })
  return output as unknown as WebAudioOutput
}
