import { AHEAD_SECONDS, CHUNK_SECONDS } from './memory'
import { MediaFailure } from './media-load'
import { createResampler } from './resample'
import type { Resampler } from './resample'
import { decodeFrames, frameRange, parseWavHeader } from './wav'
import type { WavLayout } from './wav'

/**
 * One song on the audio clock (the Web Audio output's, `output.ts`): streamed from main's media scheme
 * with `fetch` + Range in chunks, decoded here (WAV) and resampled to the context's rate with the phase
 * carried across chunks; each chunk is an AudioBufferSourceNode started at its exact frame on the audio
 * clock. At most `AHEAD_SECONDS` are decoded ahead of the playhead; played chunks are let go. A file
 * that is not WAV is fetched whole and decoded by `decodeAudioData`.
 */

/** First chunk small, so a click or a seek is heard at once; the rest in `CHUNK_SECONDS`. */
const FIRST_CHUNK_SECONDS = 0.25
const HEADER_BYTES = 64 * 1024

interface Chunk {
  node: AudioBufferSourceNode
  /** Clock time its first frame plays. */
  at: number
  end: number
}

/** One song on the audio clock. */
export class Track {
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
