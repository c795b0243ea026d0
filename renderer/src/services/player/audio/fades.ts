/**
 * Fades that keep transport changes click-free: the output's gain ramps on the audio clock instead of
 * the signal being cut mid-wave. Pure: it says what to schedule; the graph applies it.
 */

/** Fade length for pause, resume, seek and stop (the issue asks 5–20 ms). */
export const FADE_SECONDS = 0.012
export const MIN_FADE_SECONDS = 0.005
export const MAX_FADE_SECONDS = 0.02

export type TransportChange = 'pause' | 'resume' | 'seek' | 'stop' | 'start'

/** A linear gain ramp from the value the gain has at `at` to `to`, over `seconds`. */
export interface Ramp {
  at: number
  to: number
  seconds: number
}

export interface FadePlan {
  /** Ramps to schedule, in order. */
  ramps: Ramp[]
  /** When the sound may be cut or moved (pause, seek, stop): after the fade out; undefined if never. */
  cutAt?: number
}

export function clampFade(seconds: number): number {
  return Math.min(MAX_FADE_SECONDS, Math.max(MIN_FADE_SECONDS, seconds))
}

/**
 * What to schedule at `now` (the audio clock, seconds) for a transport change. A pause, stop or seek
 * fades out and says when the cut (or the jump) may happen; a resume or a start fades in from silence;
 * a seek fades in again once the new position plays (`resume` after the jump).
 */
export function planFade(change: TransportChange, now: number, seconds = FADE_SECONDS): FadePlan {
  const fade = clampFade(seconds)
  switch (change) {
    case 'pause':
    case 'stop':
    case 'seek':
      return { ramps: [{ at: now, to: 0, seconds: fade }], cutAt: now + fade }
    case 'resume':
    case 'start':
      return { ramps: [{ at: now, to: 1, seconds: fade }] }
  }
}

/**
 * Ramps `param` linearly from `from` (its value at `at`) to `to` over `seconds`. `cancelAndHoldAtTime`
 * alone is not enough: when no ramp is in progress at `at` it adds no event (as the standard says), and
 * a linear ramp runs from the previous event, a fade that ended seconds ago, so the gain would already be
 * near its end at `at`: a cut with a faint tail, not a fade (what `bench:audio` heard on every pause).
 */
export function rampFrom(param: AudioParam, at: number, from: number, to: number, seconds: number) {
  param.cancelAndHoldAtTime(at)
  param.setValueAtTime(from, at)
  param.linearRampToValueAtTime(to, at + seconds)
}

/** One linear ramp of a gain, as scheduled: to know its value at any time without asking the node. */
export interface RampSegment {
  at: number
  from: number
  to: number
  seconds: number
}

/**
 * The value at `t` of a gain driven only by `segments` (scheduled in order, each starting where it was
 * scheduled: a later one replaces what an earlier one would have done from its start), `initial` before.
 */
export function rampValueAt(segments: readonly RampSegment[], t: number, initial = 0): number {
  let value = initial
  for (const segment of segments) {
    if (segment.at > t) break
    const end = segment.at + segment.seconds
    value =
      t >= end || segment.seconds <= 0
        ? segment.to
        : segment.from + ((segment.to - segment.from) * (t - segment.at)) / segment.seconds
  }
  return value
}
