import { rampFrom } from './fades'

/**
 * The renderings of one song (`track.ts`) and their chunks on the audio clock. A rendering (a run) is the
 * song scheduled from one start on, as AudioBufferSourceNodes each on the frame after the previous one's
 * last, through the run's own gain; a speed change or a seek while playing crosses from the old
 * rendering into a new one on these gains.
 */

/** A speed change crossfades the old rendering into the new over this long. */
export const SPEED_SWITCH_SECONDS = 0.03
/** How often a start a render passed is scheduled again before it plays late anyway. */
const START_TRIES = 3

export interface Chunk {
  node: AudioBufferSourceNode
  /** Clock time its first frame plays. */
  start: number
  end: number
  /** When it was told to stop: a later, later stop must not undo an earlier one. */
  stopAt: number
}

/** The next frame boundary of `context` at least `lead` from now. */
export function frameAfter(context: BaseAudioContext, lead: number): number {
  const rate = context.sampleRate
  return Math.ceil((context.currentTime + lead) * rate) / rate
}

export class Renderings {
  /** The current rendering's gain. */
  run?: GainNode
  /** The chunks scheduled and not played yet. */
  chunks: Chunk[] = []
  /** Clock time the current rendering began, frames scheduled since, and where the next chunk plays. */
  runStart = 0
  scheduledFrames = 0
  cursorTime = 0
  /** The current run's fade in (a seek or a speed change crossing into it): from `at`, over `seconds`. */
  private runFadeIn = { at: 0, seconds: 0 }

  constructor(
    private readonly context: BaseAudioContext,
    private readonly destination: AudioNode,
    private readonly events: { underrun(where?: string): void; lateStart(): void },
  ) {}

  /** Clock time the frame after the last scheduled one plays. */
  get frameEnd(): number {
    return this.runStart + this.scheduledFrames / this.context.sampleRate
  }

  /**
   * A new run's gain: at full level at once for a start; faded in over `fadeIn` seconds when it takes
   * over from the old run (a speed change, a seek while playing; the caller fades the old one out).
   */
  newRun(at: number, fadeIn = 0) {
    const old = this.run
    const run = this.context.createGain()
    run.connect(this.destination)
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
  fadeOutRun(run: GainNode | undefined, chunks: readonly Chunk[], at: number, seconds: number) {
    if (run) rampFrom(run.gain, at, this.runLevelAt(at), 0, seconds)
    for (const chunk of chunks) stopChunk(chunk, at + seconds)
  }

  /** The current run's gain at clock time `t`: under 1 only while it fades in (a seek crossing into it). */
  private runLevelAt(t: number): number {
    const { at, seconds } = this.runFadeIn
    return seconds > 0 ? Math.min(1, Math.max(0, (t - at) / seconds)) : 1
  }

  /** Schedules `buffer` on the frame after what is scheduled (see `scheduleChunk`). */
  append(buffer: AudioBuffer, first?: () => number) {
    const node = this.scheduleChunk(buffer, first)
    this.scheduledFrames += buffer.length
    const chunk = {
      node,
      start: this.frameEnd - buffer.length / this.context.sampleRate,
      end: this.frameEnd,
      stopAt: Number.POSITIVE_INFINITY,
    }
    this.keep(chunk)
    this.cursorTime = chunk.end
  }

  /**
   * Schedules `chunks` (of the run just left) again into the current run, `shift` seconds earlier, from
   * their own buffers: what is past `at` of them.
   */
  replay(chunks: readonly Chunk[], at: number, shift: number) {
    this.chunks = []
    for (const chunk of chunks) {
      const start = chunk.start - shift
      const end = chunk.end - shift
      if (end <= at) continue
      const node = this.context.createBufferSource()
      node.buffer = chunk.node.buffer
      node.connect(this.run!)
      if (start >= at) node.start(start)
      else node.start(at, at - start)
      this.keep({ node, start, end, stopAt: Number.POSITIVE_INFINITY })
    }
  }

  /** Stops every scheduled chunk at clock time `at` (not before now) and forgets them. */
  stopAll(at: number) {
    for (const chunk of this.chunks) stopChunk(chunk, Math.max(at, this.context.currentTime))
    this.chunks = []
  }

  /** Keeps `chunk` among the scheduled ones until it has played. */
  private keep(chunk: Chunk) {
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
      const at = this.frameEnd
      node.start(at)
      if (at >= this.context.currentTime) return node
      // A chunk that arrives after its time is an underrun: it is heard late (a stall). So is a start
      // whose time does not move on (a song prepared to follow on a frame planned before).
      if (!first || tries === START_TRIES || at === tried) {
        this.events.underrun(this.lateness(at))
        return node
      }
      tried = at
      node.stop()
      node.disconnect()
      this.events.lateStart()
    }
  }

  /** Where a chunk due at `at` fell late: how late (ms), how far into its run (s), and the wall time. */
  private lateness(at: number): string {
    const late = (this.context.currentTime - at) * 1000
    return `${late.toFixed(1)}@${(at - this.runStart).toFixed(2)}@${Date.now()}`
  }

  /** Runs `action` once clock time `at` has passed (and a little more). */
  later(at: number, action: () => void) {
    setTimeout(action, Math.max(0, (at - this.context.currentTime) * 1000) + 50)
  }
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
