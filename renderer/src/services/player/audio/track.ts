import { rangeHeader } from '@shared/http/range'
import { ClockMap } from './clock-map'
import { fadeCurve } from './crossfade'
import { FADE_SECONDS, rampFrom } from './fades'
import { AHEAD_SECONDS, CHUNK_SECONDS } from './memory'
import { fileSize, MediaFailure } from './media-load'
import { openCodecSource } from './codec-source'
import { bufferSource, wavSource } from './pcm-source'
import type { PcmSource } from './pcm-source'
import { createStretcher, FRAME_SECONDS, TOLERANCE_SECONDS } from './stretch'
import type { Stretcher } from './stretch'
import { parseWavHeader } from './wav'

/**
 * One song on the audio clock (the Web Audio output's, `output.ts`): its PCM read a stretch at a time
 * (`pcm-source.ts`: a WAV file by byte ranges, decoded and resampled; `codec-source.ts`: FLAC, MP3
 * and AAC by byte ranges, decoded by WebCodecs; other formats decoded whole by `decodeAudioData`),
 * time-stretched to the playback speed with the pitch kept (`stretch.ts`; nothing is done at 1×), and
 * scheduled as AudioBufferSourceNodes, each on the frame after the previous one's last.
 * At most `AHEAD_SECONDS` of the clock are scheduled ahead of the playhead; played chunks are let go.
 *
 * Nodes: chunks → run gain (a speed change crossfades the old rendering into the new) → loudness gain
 * (`output`) → crossfade gain (`fader`) → the output's transport gain.
 */

/** First chunk small, so a click or a seek is heard at once; the rest in `CHUNK_SECONDS` of the clock. */
const FIRST_CHUNK_SECONDS = 0.25
const HEADER_BYTES = 64 * 1024
/** A speed change crossfades the old rendering into the new over this long. */
export const SPEED_SWITCH_SECONDS = 0.03
/**
 * How far ahead of the context's clock a new start (a click, a seek) is scheduled. The clock reads the
 * first frame of the next render (Chromium renders a device buffer's worth, 512 frames, at each device
 * callback), so a start scheduled at it is rendered at the next callback: no lead. A lead only delays
 * the sound (a 10 ms lead is 10 ms more from click to sound in `npm run bench:audio`).
 */
export const START_LEAD_SECONDS = 0
/** How often a start a render passed is scheduled again before it plays late anyway. */
const START_TRIES = 3
/**
 * A seek while playing keeps the old position playing until the new one's first chunk is scheduled,
 * then crosses from one to the other over `FADE_SECONDS`; should the new position take longer than this
 * (a FLAC seek's probes over a slow network), the old one fades out at this time and the new one fades
 * in when it comes.
 */
export const SEEK_HOLD_SECONDS = 0.06
/** A seek forward within what is scheduled leaves at least this much of it to play while reading on. */
const SEEK_WITHIN_MARGIN_SECONDS = 1

interface Chunk {
  node: AudioBufferSourceNode
  /** Clock time its first frame plays. */
  start: number
  end: number
  /** When it was told to stop: a later, later stop must not undo an earlier one. */
  stopAt: number
}

/** The next frame boundary of `context` at least `lead` from now. */
export function frameAfter(context: AudioContext, lead: number): number {
  const rate = context.sampleRate
  return Math.ceil((context.currentTime + lead) * rate) / rate
}

/** One song on the audio clock. */
export class Track {
  /** Read as a stream (WAV, FLAC, MP3, AAC): its loudness can be measured a stretch at a time. */
  streamed = false
  duration = Number.NaN
  /** Not scheduled: `play` starts it (from the pending position). */
  needsStart = true
  /** Loudness gain. */
  readonly output: GainNode
  /** Crossfade gain, apart from the loudness gain. */
  readonly fader: GainNode
  /** Song seconds per clock second of what is scheduled; the pitch is kept. */
  speed: number
  /** The song position ↔ clock mapping. */
  readonly clock = new ClockMap()
  /** Clock time the last frame ends, once the last chunk is scheduled. */
  endTime: number | undefined
  /** Set by the output for a prepared song: when it starts and how long it overlaps the one before. */
  startTime: number | undefined
  crossfade = 0
  readonly opened: Promise<void>
  /** Told when reading on fails after the start (the output reports it as the element's error). */
  onFailure: (failure: unknown) => void = () => undefined
  /** Told when a start was scheduled again because a render passed it (`scheduleChunk`). */
  onLateStart: () => void = () => undefined
  /** The loudness gain applied (dB). */
  gainDb = 0
  disposed = false
  failed = false
  /**
   * Reading on failed while the song played (its source stopped answering): the song ends where its
   * scheduled audio ends (`endTime`), and the output then reports this failure, once that has played.
   */
  cutShort: unknown = undefined
  private source?: PcmSource
  /** For a streamed FLAC, MP3 or AAC file: decodes it whole instead, once, if its decoder fails. */
  private wholeInstead?: () => Promise<void>
  private chunks: Chunk[] = []
  private run?: GainNode
  /** The current run's fade in (a seek or a speed change crossing into it): from `at`, over `seconds`. */
  private runFadeIn = { at: 0, seconds: 0 }
  private stretcher?: Stretcher
  /** Clock time the next chunk's first frame plays; frames scheduled since the run began, and when. */
  private cursorTime = 0
  private scheduledFrames = 0
  private runStart = 0
  private pumping: Promise<void> | undefined
  private epoch = 0
  /** A start whose first chunk is not scheduled yet, and its epoch. */
  private starting: number | undefined
  private inflight: Promise<unknown> | undefined
  /** Until when the crossfade gain (`fader`) moves: a song crossfade in progress or planned. */
  private faderMovesUntil = 0

  constructor(
    readonly url: string,
    private readonly context: AudioContext,
    destination: AudioNode,
    private readonly load: (url: string, range?: string) => Promise<Response>,
    private readonly onUnderrun: () => void = () => undefined,
    speed = 1,
  ) {
    this.speed = speed
    this.fader = context.createGain()
    this.fader.connect(destination)
    this.output = context.createGain()
    this.output.connect(this.fader)
    this.opened = this.open()
    this.opened.catch(() => undefined)
  }

  private async open() {
    const answer = await this.load(this.url, rangeHeader(0, HEADER_BYTES - 1))
    const head = await answer.arrayBuffer()
    const size = fileSize(answer, head.byteLength)
    /** The first bytes are the whole file (a source that answered the range with all of it). */
    const whole = answer.status === 200 && size === head.byteLength ? head : undefined
    const layout = parseWavHeader(head, size)
    if (layout) {
      this.streamed = true
      this.duration = layout.frames / layout.sampleRate
      this.source = wavSource(
        layout,
        this.context.sampleRate,
        async (range) => (await this.load(this.url, range)).arrayBuffer(),
        head,
      )
      return
    }
    // FLAC, MP3, AAC in MP4: decoded a stretch at a time, the file read by ranges.
    if (size !== undefined) {
      const codec = await openCodecSource(
        {
          head: new Uint8Array(head),
          size,
          read: async (start, end) =>
            new Uint8Array(await (await this.load(this.url, rangeHeader(start, end))).arrayBuffer()),
        },
        this.context.sampleRate,
      )
      if (codec) {
        this.duration = codec.duration
        this.source = codec.source
        this.streamed = true
        // Should the decoder refuse the file's first stretch, the browser decodes it whole instead.
        this.wholeInstead = () => this.decodeWhole(whole)
        return
      }
    }
    // Another format (or no WebCodecs): the whole file, decoded by the browser.
    await this.decodeWhole(whole)
  }

  /** The whole file (`whole`, or fetched), decoded by the browser and read from memory. */
  private async decodeWhole(whole?: ArrayBuffer) {
    const bytes = whole ?? (await (await this.load(this.url)).arrayBuffer())
    let buffer: AudioBuffer
    try {
      buffer = await this.context.decodeAudioData(bytes)
    } catch {
      throw new MediaFailure(4, 'The audio format is not supported')
    }
    this.duration = buffer.duration
    this.source = bufferSource(buffer)
    this.streamed = false
  }

  /**
   * Whether the clock maps this song yet: false until its first start is scheduled (before that the
   * map's default would read the context's own time as the song's position).
   */
  clockKnown = false

  /** Position (s) in the song the clock is at. */
  position(now: number): number {
    const at = this.clock.position(now)
    return Number.isFinite(this.duration) ? Math.max(0, Math.min(this.duration, at)) : at
  }

  /** The clock time the song ends: exact once its last chunk is scheduled, foreseen before. */
  foreseenEnd(): number {
    return this.endTime ?? this.clock.clockAt(this.duration)
  }

  /**
   * Plays from `position` (s): what was scheduled stops at `stopAt`, and the first frame plays at
   * `when()`, asked once the first chunk is here (so a slow fetch never starts it in the past).
   * Answers that clock time, or undefined when a newer start overtook this one.
   */
  startAt(position: number, stopAt: number, when: () => number): Promise<number | undefined> {
    this.needsStart = false
    this.stopChunks(stopAt)
    return this.begin(
      position,
      (at, exact) => {
        this.clockKnown = true
        this.clock.reset(at, exact, this.speed)
        this.newRun(at)
      },
      when,
    )
  }

  /**
   * Plays on at `speed` from about `lead` seconds from now: the song is rendered again from there at
   * the new speed, and the old rendering, which plays until then, is crossfaded into it. Answers false
   * when the song ends too soon to change (the next song takes the new speed).
   */
  async changeSpeed(speed: number, lead: number): Promise<boolean> {
    if (this.inflight) await this.inflight.catch(() => undefined)
    if (speed === this.speed || this.disposed) return true
    if (this.needsStart) {
      this.speed = speed
      return true
    }
    const planned = frameAfter(this.context, lead)
    if (this.endTime !== undefined && planned >= this.endTime - 2 * lead) return false
    this.speed = speed
    // The old chunks play on until the new ones take over (a pause or seek meanwhile stops them all).
    this.epoch++
    this.pumping = undefined
    const at = await this.begin(
      this.position(planned),
      (at, exact) => {
        // Linear: the two renderings are of the same music, largely in phase.
        this.fadeOutRun(this.run, this.chunks, at, SPEED_SWITCH_SECONDS)
        this.clock.add(at, exact, speed)
        this.newRun(at, SPEED_SWITCH_SECONDS)
      },
      () => Math.max(planned, frameAfter(this.context, START_LEAD_SECONDS)),
    )
    return at !== undefined
  }

  /**
   * Whether a seek can cross from the old position to the new one on the song's own gains: it is
   * playing, no start is on its way (a click, a speed change, another seek) and no song crossfade moves
   * its fader. Otherwise the output fades the transport out first (`startAt`).
   */
  canSeekAcross(now: number): boolean {
    return !this.needsStart && this.starting === undefined && !this.inflight && this.faderMovesUntil <= now
  }

  /**
   * Moves to `position` while playing: the old position plays on until the new one's first chunk is
   * scheduled (at the next frame the graph renders), then the old rendering fades out over
   * `FADE_SECONDS` while the new one fades in (both on their run gains: the transport is untouched).
   * If the new position is not here within `SEEK_HOLD_SECONDS`, the old one fades out then and the new
   * one fades in when it comes. Answers the new position's clock time, or undefined when overtaken.
   */
  seekTo(position: number): Promise<number | undefined> {
    const buffered = this.seekWithin(position)
    if (buffered !== undefined) return Promise.resolve(buffered)
    const old = this.run
    const oldChunks = [...this.chunks]
    const hold = frameAfter(this.context, SEEK_HOLD_SECONDS)
    this.fadeOutRun(old, oldChunks, hold, FADE_SECONDS)
    this.epoch++
    this.pumping = undefined
    return this.begin(
      position,
      (at, exact) => {
        // Crossing before the hold ends: the old position fades out from `at` instead.
        if (at < hold) this.fadeOutRun(old, oldChunks, at, FADE_SECONDS)
        this.clockKnown = true
        this.clock.reset(at, exact, this.speed)
        this.newRun(at, FADE_SECONDS)
      },
      () => frameAfter(this.context, START_LEAD_SECONDS),
    )
  }

  /**
   * A seek forward to a position already scheduled (the read-ahead holds up to `AHEAD_SECONDS`): the
   * chunks from there are scheduled again from their own buffers, earlier by the whole frames between
   * the position's planned time and the next frame the graph renders, so nothing is read or decoded and
   * the reading goes on where it was. Crosses from the old rendering to the new as `seekTo` does.
   * Answers the new position's clock time, or undefined where it does not apply (a position not
   * scheduled or too close to the end of what is, a read on its way, a speed change still crossing).
   */
  private seekWithin(position: number): number | undefined {
    const old = this.run
    const rate = this.context.sampleRate
    const at = frameAfter(this.context, START_LEAD_SECONDS)
    const planned = this.clock.clockAt(position)
    if (
      !old ||
      this.pumping ||
      // A chunk told to stop belongs to a run being left (a speed change or a seek still crossing).
      this.chunks.some((chunk) => chunk.stopAt !== Number.POSITIVE_INFINITY) ||
      planned <= at ||
      planned > this.cursorTime - SEEK_WITHIN_MARGIN_SECONDS
    )
      return undefined
    const shift = Math.round((planned - at) * rate) / rate
    const exact = this.clock.position(at + shift)
    const oldChunks = this.chunks
    this.fadeOutRun(old, oldChunks, at, FADE_SECONDS)
    const { runStart, scheduledFrames, endTime } = this
    this.clock.reset(at, exact, this.speed)
    this.newRun(at, FADE_SECONDS)
    const run = this.run!
    this.runStart = runStart - shift
    this.scheduledFrames = scheduledFrames
    this.cursorTime = this.runStart + scheduledFrames / rate
    if (endTime !== undefined) this.endTime = endTime - shift
    this.chunks = []
    for (const chunk of oldChunks) {
      const start = chunk.start - shift
      const end = chunk.end - shift
      if (end <= at) continue
      const node = this.context.createBufferSource()
      node.buffer = chunk.node.buffer
      node.connect(run)
      if (start >= at) node.start(start)
      else node.start(at, at - start)
      this.track({ node, start, end, stopAt: Number.POSITIVE_INFINITY })
    }
    return at
  }

  private begin(
    position: number,
    onFirst: (at: number, exact: number) => void,
    when: () => number,
  ): Promise<number | undefined> {
    const epoch = this.epoch
    // No pump until the first chunk of this start is scheduled: it would read from the old cursor.
    this.starting = epoch
    const started = this.startFrom(epoch, position, onFirst, when).finally(() => {
      if (this.starting === epoch) this.starting = undefined
      if (this.inflight === started) this.inflight = undefined
    })
    this.inflight = started
    return started
  }

  private async startFrom(
    epoch: number,
    position: number,
    onFirst: (at: number, exact: number) => void,
    when: () => number,
  ): Promise<number | undefined> {
    await this.opened
    if (epoch !== this.epoch || this.disposed) return undefined
    try {
      return await this.startOnce(epoch, position, onFirst, when)
    } catch (failure) {
      const instead = this.wholeInstead
      if (!instead || !(failure instanceof MediaFailure) || failure.code !== 3) throw failure
      // A file the streaming decoder cannot read (an odd FLAC, a damaged MP3 frame): decoded whole by
      // the browser and started again from the same position.
      this.wholeInstead = undefined
      await instead()
      if (epoch !== this.epoch || this.disposed) return undefined
      return this.startOnce(epoch, position, onFirst, when)
    }
  }

  private async startOnce(
    epoch: number,
    position: number,
    onFirst: (at: number, exact: number) => void,
    when: () => number,
  ): Promise<number | undefined> {
    const source = this.source!
    this.endTime = undefined
    this.cutShort = undefined
    const exact = source.seek(position)
    this.stretcher = createStretcher(this.speed, source.channels, this.context.sampleRate)
    this.pumping = undefined
    // Enough for about FIRST_CHUNK_SECONDS of output once the stretch has kept back its frame.
    const first =
      this.speed === 1
        ? FIRST_CHUNK_SECONDS
        : FIRST_CHUNK_SECONDS * Math.max(1, this.speed) + 2 * (FRAME_SECONDS + TOLERANCE_SECONDS)
    const scheduled = await this.fill(epoch, first, () => {
      const at = when()
      onFirst(at, exact)
      return at
    })
    if (!scheduled) return undefined
    this.starting = undefined
    void this.pump()
    return this.runStart
  }

  /**
   * A new run's gain: at full level at once for a start; faded in over `fadeIn` seconds when it takes
   * over from the old run (a speed change, a seek while playing; the caller fades the old one out).
   */
  private newRun(at: number, fadeIn = 0) {
    const old = this.run
    const run = this.context.createGain()
    run.connect(this.output)
    const fades = fadeIn > 0 && !!old
    if (fades) {
      run.gain.value = 0
      run.gain.setValueAtTime(0, at)
      run.gain.linearRampToValueAtTime(1, at + fadeIn)
    }
    this.runFadeIn = { at, seconds: fades ? fadeIn : 0 }
    if (old) this.later(at + Math.max(fadeIn, SPEED_SWITCH_SECONDS), () => old.disconnect())
    this.run = run
    this.runStart = at
    this.cursorTime = at
    this.scheduledFrames = 0
  }

  /**
   * Fades `run` (the current one) out over `seconds` from `at`, from the level it has then (not from its
   * last event), and stops `chunks` where the fade ends.
   */
  private fadeOutRun(run: GainNode | undefined, chunks: readonly Chunk[], at: number, seconds: number) {
    if (run) rampFrom(run.gain, at, this.runLevelAt(at), 0, seconds)
    for (const chunk of chunks) stopChunk(chunk, at + seconds)
  }

  /** The current run's gain at clock time `t`: under 1 only while it fades in (a seek crossing into it). */
  private runLevelAt(t: number): number {
    const { at, seconds } = this.runFadeIn
    return seconds > 0 ? Math.min(1, Math.max(0, (t - at) / seconds)) : 1
  }

  /** Keeps `AHEAD_SECONDS` of the clock scheduled ahead of it. */
  pump(): Promise<void> {
    if (this.pumping || !this.source || this.disposed || this.needsStart || this.starting !== undefined)
      return this.pumping ?? Promise.resolve()
    const epoch = this.epoch
    // With nothing to read the body below ends before `pumping` is assigned: only a pump still
    // running is kept (a finished one kept there would stop every later pump: silence after 20 s).
    let finished = false
    const pumping: Promise<void> = (async () => {
      try {
        while (
          !this.disposed &&
          epoch === this.epoch &&
          this.endTime === undefined &&
          this.cursorTime - this.context.currentTime < AHEAD_SECONDS
        ) {
          // Chunks of at most CHUNK_SECONDS of the clock (a slow speed plays a chunk for longer).
          if (!(await this.fill(epoch, CHUNK_SECONDS * Math.min(1, this.speed)))) break
        }
      } catch (failure) {
        // A range that failed while playing on: what is scheduled plays to its end, then the song fails
        // as an element's would (the engine then recovers at that position), not a silent stall. A frame
        // the decoder refused fails at once.
        if (epoch !== this.epoch || this.disposed) return
        const undecodable = failure instanceof MediaFailure && failure.code !== 2
        if (!undecodable && this.scheduledFrames > 0) {
          this.cutShort = failure
          this.endTime = this.cursorTime
        } else this.onFailure(failure)
      } finally {
        finished = true
        if (epoch === this.epoch) this.pumping = undefined
      }
    })()
    if (!finished) this.pumping = pumping
    return pumping
  }

  /** Reads, stretches and schedules the next `seconds` of the song (the first chunk at `first()`). */
  private async fill(epoch: number, seconds: number, first?: () => number): Promise<boolean> {
    const read = await this.source!.read(seconds, () => epoch === this.epoch && !this.disposed)
    if (!read || epoch !== this.epoch || this.disposed) return false
    const stretcher = this.stretcher!
    let samples = stretcher.push(read.samples)
    if (read.last) samples = concat(samples, stretcher.flush())
    const rate = this.context.sampleRate
    const length = samples[0]?.length ?? 0
    if (length > 0) {
      const buffer = this.context.createBuffer(samples.length, length, rate)
      samples.forEach((channel, c) => buffer.copyToChannel(channel as Float32Array<ArrayBuffer>, c))
      const node = this.scheduleChunk(buffer, first)
      this.scheduledFrames += length
      const chunk = {
        node,
        start: this.runStart + (this.scheduledFrames - length) / rate,
        end: this.runStart + this.scheduledFrames / rate,
        stopAt: Number.POSITIVE_INFINITY,
      }
      this.track(chunk)
      this.cursorTime = chunk.end
    } else if (first) first()
    if (read.last) this.endTime = this.runStart + this.scheduledFrames / rate
    return true
  }

  /** Keeps `chunk` among the scheduled ones until it has played. */
  private track(chunk: Chunk) {
    this.chunks.push(chunk)
    chunk.node.onended = () => {
      chunk.node.disconnect()
      this.chunks = this.chunks.filter((item) => item !== chunk)
    }
  }

  /**
   * Plays `buffer` on the frame after what is scheduled. A start's first chunk (`first` sets the run's
   * clock time) has its time asked just before it is scheduled: at the next frame the graph renders
   * (`START_LEAD_SECONDS`). Should a render pass that time before the start reaches the graph (a device
   * stream that starts renders several buffers at once), the chunk would play up to a render late and
   * its next chunk overlap it: it is scheduled again from the clock's new time instead. Nothing of it
   * was heard: the transport fades in from the start's time, which the caller sets after this.
   */
  private scheduleChunk(buffer: AudioBuffer, first?: () => number): AudioBufferSourceNode {
    let tried: number | undefined
    for (let tries = 1; ; tries++) {
      if (first) first()
      const node = this.context.createBufferSource()
      node.buffer = buffer
      node.connect(this.run!)
      // Every chunk starts on the frame after the previous one's last: one continuous signal.
      const at = this.runStart + this.scheduledFrames / this.context.sampleRate
      node.start(at)
      if (at >= this.context.currentTime) return node
      // A chunk that arrives after its time is an underrun: it is heard late (a stall). So is a start
      // whose time does not move on (a song prepared to follow on a frame planned before).
      if (!first || tries === START_TRIES || at === tried) {
        this.onUnderrun()
        return node
      }
      tried = at
      node.stop()
      node.disconnect()
      this.onLateStart()
    }
  }

  /** Fades in from silence over `seconds` from `at` (the song coming in under a crossfade). */
  fadeIn(at: number, seconds: number) {
    const gain = this.fader.gain
    this.faderMovesUntil = at + seconds
    gain.cancelScheduledValues(0)
    gain.value = 0
    gain.setValueAtTime(0, at)
    curve(gain, 'in', at, seconds)
  }

  /** Fades out to silence over `seconds` from `at` (the song going out under a crossfade). */
  fadeOut(at: number, seconds: number) {
    const gain = this.fader.gain
    this.faderMovesUntil = at + seconds
    gain.cancelAndHoldAtTime(at)
    curve(gain, 'out', at, seconds)
  }

  /** Back to full level from `at` on: a crossfade cut short (pause, seek, the next song dropped). */
  settle(at: number) {
    const gain = this.fader.gain
    this.faderMovesUntil = at
    gain.cancelAndHoldAtTime(at)
    gain.setValueAtTime(1, at)
  }

  /** Stops every scheduled chunk at clock time `at` (after a fade) and forgets them. */
  stopChunks(at: number) {
    this.epoch++
    for (const chunk of this.chunks) stopChunk(chunk, Math.max(at, this.context.currentTime))
    this.chunks = []
    this.pumping = undefined
  }

  dispose(at: number) {
    this.disposed = true
    this.stopChunks(at)
    const { fader } = this
    this.later(at, () => fader.disconnect())
  }

  /** Fades this song out over `FADE_SECONDS` from `now` and lets it go (it may be playing). */
  cut(now: number) {
    const gain = this.fader.gain
    // From its level now (the value of the block just rendered: the same but in a crossfade's curve).
    rampFrom(gain, now, gain.value, 0, FADE_SECONDS)
    this.dispose(now + FADE_SECONDS)
  }

  private later(at: number, action: () => void) {
    setTimeout(action, Math.max(0, (at - this.context.currentTime) * 1000) + 50)
  }
}

function concat(a: Float32Array[], b: Float32Array[]): Float32Array[] {
  if (!b[0]?.length) return a
  return a.map((channel, c) => {
    const joined = new Float32Array(channel.length + b[c].length)
    joined.set(channel)
    joined.set(b[c], channel.length)
    return joined
  })
}

/** Stops a chunk at `at` unless it already stops sooner (a node's last stop() call is the one it obeys). */
function stopChunk(chunk: Chunk, at: number) {
  if (at >= chunk.stopAt) return
  chunk.stopAt = at
  try {
    chunk.node.stop(at)
  } catch {
    // Already stopped.
  }
}

/** An equal-power fade on `param`; linear if a curve cannot go there (it would overlap another). */
function curve(param: AudioParam, direction: 'in' | 'out', at: number, seconds: number) {
  try {
    param.setValueCurveAtTime(fadeCurve(direction), at, seconds)
  } catch {
    rampFrom(param, at, param.value, direction === 'in' ? 1 : 0, seconds)
  }
}
