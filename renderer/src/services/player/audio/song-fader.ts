import { fadeCurve } from './crossfade'
import { FADE_SECONDS, rampFrom } from './fades'

/**
 * A song's crossfade gain (`track.ts`), apart from its loudness gain: the equal-power fades of a song
 * crossfade, and the short fade of a song let go while it may be heard.
 */
export class SongFader {
  readonly gain: GainNode
  /** Until when the gain moves: a song crossfade in progress or planned. */
  movesUntil = 0

  constructor(context: BaseAudioContext, destination: AudioNode) {
    this.gain = context.createGain()
    this.gain.connect(destination)
  }

  /** Fades in from silence over `seconds` from `at` (the song coming in under a crossfade). */
  fadeIn(at: number, seconds: number) {
    const gain = this.gain.gain
    this.movesUntil = at + seconds
    gain.cancelScheduledValues(0)
    gain.value = 0
    gain.setValueAtTime(0, at)
    curve(gain, 'in', at, seconds)
  }

  /** Fades out to silence over `seconds` from `at` (the song going out under a crossfade). */
  fadeOut(at: number, seconds: number) {
    const gain = this.gain.gain
    this.movesUntil = at + seconds
    gain.cancelAndHoldAtTime(at)
    curve(gain, 'out', at, seconds)
  }

  /** Back to full level from `at` on: a crossfade cut short (pause, seek, the next song dropped). */
  settle(at: number) {
    const gain = this.gain.gain
    this.movesUntil = at
    gain.cancelAndHoldAtTime(at)
    gain.setValueAtTime(1, at)
  }

  /** Fades to silence over `FADE_SECONDS` from `now`, from its level now (a song let go). */
  cut(now: number) {
    const gain = this.gain.gain
    // From its level now (the value of the block just rendered: the same but in a crossfade's curve).
    rampFrom(gain, now, gain.value, 0, FADE_SECONDS)
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
