import { ClockMap } from './clock-map'
import { FADE_SECONDS } from './fades'
import { AHEAD_SECONDS, CHUNK_SECONDS, readSeconds } from './memory'
import { MediaFailure } from './media-load'
import { openSong } from './open-song'
import type { LoadMedia, OpenedSong, SongHead } from './open-song'
import type { PreparedSong } from './chunk-client'
import { frameAfter, Renderings, SPEED_SWITCH_SECONDS } from './renderings'
import { SongFader } from './song-fader'
import { chunkOf, firstChunkSeconds, fitsStart, readFirstChunk } from './first-chunk'
import { SEEK_HOLD_SECONDS, SEEK_WITHIN_MARGIN_SECONDS, START_LEAD_SECONDS } from './first-chunk'
import type { Chunk, FirstChunk } from './first-chunk'

/**
 * One song on the audio clock (the Web Audio output's, `output.ts`): its start, seek and speed state and
 * its read-ahead. Its stages: `open-song.ts` (the codec from the first bytes: WAV, FLAC, MP3, AAC, or a
 * whole-file decode), the PCM read a stretch at a time (`pcm-source.ts`, `codec-source.ts`) and
 * time-stretched to the playback speed with the pitch kept (`stretch.ts`; nothing is done at 1×), both
 * in the chunk worker (`chunk-client.ts`), and scheduled here as chunks on the audio clock
 * (`renderings.ts`). At most `AHEAD_SECONDS` of the clock are scheduled ahead of the playhead, read
 * in chunks that grow after a start (`readSeconds`); played chunks are let go.
 *
 * Nodes: chunks → run gain (a speed change crossfades the old rendering into the new) → loudness gain
 * (`output`) → crossfade gain (`fader`, `song-fader.ts`) → the output's transport gain.
 */

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
  readonly fader: SongFader
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
  /** The song's first bytes as fetched, for its loudness analysis (WAV, FLAC, MP3, AAC). */
  head?: SongHead
  private source?: PreparedSong
  /** For a streamed FLAC, MP3 or AAC file: decodes it whole instead, once, if its decoder fails. */
  private wholeInstead?: () => Promise<OpenedSong>
  private readonly r: Renderings
  private pumping: Promise<void> | undefined
  private epoch = 0
  /** A start whose first chunk is not scheduled yet, and its epoch. */
  private starting: number | undefined
  private inflight: Promise<unknown> | undefined
  /** The first chunk read before the start was asked (`prime`) until a start takes it (`primed`: read). */
  private ahead: Promise<FirstChunk | undefined> | undefined
  /** The length of the next read (`readSeconds`, set by each read), as the worker prepares it. */
  private nextRead = CHUNK_SECONDS
  private primed: { read?: FirstChunk } | undefined

  constructor(
    readonly url: string,
    private readonly context: AudioContext,
    destination: AudioNode,
    load: LoadMedia,
    onUnderrun: (where?: string) => void = () => undefined,
    speed = 1,
  ) {
    this.speed = speed
    this.fader = new SongFader(context, destination)
    this.output = context.createGain()
    this.output.connect(this.fader.gain)
    this.r = new Renderings(context, this.output, {
      underrun: onUnderrun,
      lateStart: () => this.onLateStart(),
    })
    this.opened = openSong(url, context, load).then((opened) => this.use(opened))
    this.opened.catch(() => undefined)
  }

  private use(opened: OpenedSong) {
    this.source?.close()
    if (this.disposed) opened.source.close()
    this.source = opened.source
    this.duration = opened.duration
    this.streamed = opened.streamed
    this.head = opened.head
    this.wholeInstead = opened.wholeInstead
  }

  /** Whether the clock maps this song yet: false until its first start is scheduled. */
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
   * Reads and decodes the first chunk before the start is asked (a row pressed, `pressed-song.ts`): a
   * start from the beginning at the same speed only schedules it. Answers whether it is ready.
   */
  prime(): Promise<boolean> {
    this.ahead ??= this.opened
      .then(() => readFirstChunk(this.source!, this.speed, this.context, () => !this.disposed))
      .catch(() => undefined)
      .then((read) => (this.primed = { read }).read)
    return this.ahead.then(Boolean)
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
        this.r.newRun(at)
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
        this.r.fadeOutRun(this.r.run, this.r.chunks, at, SPEED_SWITCH_SECONDS)
        this.clock.add(at, exact, speed)
        this.r.newRun(at, SPEED_SWITCH_SECONDS)
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
    return !this.needsStart && this.starting === undefined && !this.inflight && this.fader.movesUntil <= now
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
    const old = this.r.run
    const oldChunks = [...this.r.chunks]
    const hold = frameAfter(this.context, SEEK_HOLD_SECONDS)
    this.r.fadeOutRun(old, oldChunks, hold, FADE_SECONDS)
    this.epoch++
    this.pumping = undefined
    return this.begin(
      position,
      (at, exact) => {
        // Crossing before the hold ends: the old position fades out from `at` instead.
        if (at < hold) this.r.fadeOutRun(old, oldChunks, at, FADE_SECONDS)
        this.clockKnown = true
        this.clock.reset(at, exact, this.speed)
        this.r.newRun(at, FADE_SECONDS)
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
    const r = this.r
    const old = r.run
    const rate = this.context.sampleRate
    const at = frameAfter(this.context, START_LEAD_SECONDS)
    const planned = this.clock.clockAt(position)
    if (
      !old ||
      this.pumping ||
      // A chunk told to stop belongs to a run being left (a speed change or a seek still crossing).
      r.chunks.some((chunk) => chunk.stopAt !== Number.POSITIVE_INFINITY) ||
      planned <= at ||
      planned > r.cursorTime - SEEK_WITHIN_MARGIN_SECONDS
    )
      return undefined
    const shift = Math.round((planned - at) * rate) / rate
    const exact = this.clock.position(at + shift)
    const oldChunks = r.chunks
    r.fadeOutRun(old, oldChunks, at, FADE_SECONDS)
    const { runStart, scheduledFrames } = r
    const endTime = this.endTime
    this.clock.reset(at, exact, this.speed)
    r.newRun(at, FADE_SECONDS)
    r.runStart = runStart - shift
    r.scheduledFrames = scheduledFrames
    r.cursorTime = r.frameEnd
    if (endTime !== undefined) this.endTime = endTime - shift
    r.replay(oldChunks, at, shift)
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
    // Opened (and its first chunk read ahead: `startOnce`), the first chunk is scheduled in this task.
    if (!this.source) await this.opened
    if (epoch !== this.epoch || this.disposed) return undefined
    try {
      return await this.startOnce(epoch, position, onFirst, when)
    } catch (failure) {
      const instead = this.wholeInstead
      if (!instead || !(failure instanceof MediaFailure) || failure.code !== 3) throw failure
      // A file the streaming decoder cannot read (an odd FLAC, a damaged MP3 frame): decoded whole by
      // the browser and started again from the same position.
      this.wholeInstead = undefined
      this.use(await instead())
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
    // A first chunk read ahead is on the source: the start waits for it rather than read beside it.
    const read = this.primed ? this.primed.read : await this.ahead
    this.ahead = this.primed = undefined
    if (epoch !== this.epoch || this.disposed) return undefined
    const source = this.source!
    const ahead = read && fitsStart(read, position, this.speed, source) ? read : undefined
    this.endTime = undefined
    this.cutShort = undefined
    const exact = ahead ? ahead.exact : source.start(position, this.speed)
    this.pumping = undefined
    const first = () => {
      const at = when()
      onFirst(at, exact)
      return at
    }
    const scheduled = await this.fill(epoch, firstChunkSeconds(this.speed), first, ahead?.chunk)
    if (!scheduled) return undefined
    this.starting = undefined
    void this.pump()
    return this.r.runStart
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
          this.r.cursorTime - this.context.currentTime < AHEAD_SECONDS
        ) {
          if (!(await this.fill(epoch, this.nextRead))) break
        }
      } catch (failure) {
        // A range failed while playing on: what is scheduled plays out, then the song fails as an element's
        // would (the engine recovers at that position), not a silent stall; a frame refused fails at once.
        if (epoch !== this.epoch || this.disposed) return
        const undecodable = failure instanceof MediaFailure && failure.code !== 2
        if (!undecodable && this.r.scheduledFrames > 0) {
          this.cutShort = failure
          this.endTime = this.r.cursorTime
        } else this.onFailure(failure)
      } finally {
        finished = true
        if (epoch === this.epoch) this.pumping = undefined
      }
    })()
    if (!finished) this.pumping = pumping
    return pumping
  }

  /** Schedules the next `seconds`, read and stretched in the worker (the first at `first()`), or `ready`. */
  private async fill(epoch: number, seconds: number, first?: () => number, ready?: Chunk): Promise<boolean> {
    const alive = () => epoch === this.epoch && !this.disposed
    // The worker prepares the next read at once while the read-ahead fills (`readSeconds`: its length).
    const lead = (first ? 0 : this.r.cursorTime - this.context.currentTime) + seconds / this.speed
    this.nextRead = readSeconds(lead, this.speed)
    const next = first || lead < AHEAD_SECONDS ? this.nextRead : undefined
    const chunk = ready ?? chunkOf(this.context, await this.source!.read(seconds, next))
    if (!chunk || !alive()) return false
    if (chunk.buffer) this.r.append(chunk.buffer, first)
    else if (first) first()
    if (chunk.last) this.endTime = this.r.frameEnd
    return true
  }

  /** Stops every scheduled chunk at clock time `at` (after a fade) and forgets them. */
  stopChunks(at: number) {
    this.epoch++
    this.r.stopAll(at)
    this.pumping = undefined
  }

  dispose(at: number) {
    this.disposed = true
    this.source?.close()
    this.stopChunks(at)
    const { gain } = this.fader
    this.r.later(at, () => gain.disconnect())
  }

  /** Fades this song out over `FADE_SECONDS` from `now` and lets it go (it may be playing). */
  cut(now: number) {
    this.fader.cut(now)
    this.dispose(now + FADE_SECONDS)
  }
}
