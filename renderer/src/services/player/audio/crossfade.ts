import { crossfadeSeconds } from './gapless'
import type { TrackInfo } from './gapless'

/**
 * When the next song starts and how the two are faded: on the current one's last frame (gapless), or
 * `seconds` before it with equal-power fades (the sum of the two powers stays constant, so the level
 * does not dip in the middle as with linear fades). Pure: the output schedules it on the audio clock.
 */

/** Points of the fade curves (the gain is interpolated linearly between them). */
export const FADE_CURVE_POINTS = 64
/** Shorter overlaps than this (a seek to the last moment) are played gapless instead. */
export const MIN_OVERLAP_SECONDS = 0.1

export interface CrossfadePlan {
  /** Clock time the next song's first frame plays. */
  start: number
  /** How long the two overlap: 0 is gapless. */
  seconds: number
}

export interface CrossfadeInput {
  /** The crossfade setting (s; 0 = gapless). */
  setting: number
  /** The songs, with `duration` in clock seconds (a song at 2× lasts half as long). */
  current: TrackInfo & { duration: number }
  next: TrackInfo & { duration: number }
  /** Clock time the current song's last frame ends, once its last chunk is scheduled (exact). */
  end: number | undefined
  /** The same, foreseen from the song's position and speed before that (for a crossfade only). */
  foreseenEnd: number
  /** The soonest the next song can start (its first chunk still has to be fetched). */
  earliest: number
}

/**
 * The plan, or undefined to ask again later: a gapless start waits until the exact end is known. A
 * crossfade is the setting (1–12 s, none between consecutive tracks of one album), at most half of
 * either song, and shortened to what is left of the current song.
 */
export function planCrossfade(input: CrossfadeInput): CrossfadePlan | undefined {
  const wanted = crossfadeSeconds(input.setting, input.current, input.next)
  const end = input.end ?? input.foreseenEnd
  const start = Math.max(end - wanted, input.earliest)
  if (wanted > 0 && end - start >= MIN_OVERLAP_SECONDS) return { start, seconds: end - start }
  return input.end === undefined ? undefined : { start: input.end, seconds: 0 }
}

/** The equal-power fade: `in` rises as sin, `out` falls as cos, over a quarter turn. */
export function fadeCurve(direction: 'in' | 'out', points = FADE_CURVE_POINTS): Float32Array<ArrayBuffer> {
  return Float32Array.from({ length: points }, (_, i) => {
    const angle = ((i / (points - 1)) * Math.PI) / 2
    return direction === 'in' ? Math.sin(angle) : Math.cos(angle)
  })
}
