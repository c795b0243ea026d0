/**
 * The listen rule scrobbling services agree on (ListenBrainz, Last.fm): a song of at least 30 s counts
 * once it has been heard for half its length or 4 minutes, whichever comes first. Heard time is what
 * played: the position moving forward in small steps while playing; a seek (a jump either way) adds
 * nothing. Pure: the renderer's history store feeds it the player's position a few times a second.
 */

export const LISTEN_MIN_SONG_MS = 30_000
export const LISTEN_MAX_HEARD_MS = 240_000
/** A step forward larger than this between two readings is a seek, not listening. */
const MAX_STEP_MS = 2_000

/** How long a song must be heard to count (undefined: too short to ever count). */
export function heardNeeded(durationMs: number): number | undefined {
  if (!(durationMs >= LISTEN_MIN_SONG_MS)) return undefined
  return Math.min(durationMs / 2, LISTEN_MAX_HEARD_MS)
}

export interface ListenReading {
  /** The queue entry playing (a new key starts a new count, even for the same song again). */
  key: string | null
  positionMs: number
  durationMs: number
  playing: boolean
}

/**
 * Counts heard time per play of a song; `observe` answers true once, at the reading where the play
 * becomes a listen. A repeat (the same entry from its start again) is a new play.
 */
export function createListenCounter() {
  let key: string | null = null
  let heard = 0
  let last: number | undefined
  let counted = false

  function restart(next: string | null) {
    key = next
    heard = 0
    last = undefined
    counted = false
  }

  return {
    observe(reading: ListenReading): boolean {
      if (reading.key !== key) restart(reading.key)
      const position = reading.positionMs
      if (last !== undefined && reading.playing) {
        const step = position - last
        if (step > 0 && step <= MAX_STEP_MS) heard += step
        // Back at the start after most of it was heard: played again (repeat one).
        if (counted && step < 0 && position < MAX_STEP_MS && last > reading.durationMs - MAX_STEP_MS * 2) {
          restart(key)
        }
      }
      last = position
      const needed = heardNeeded(reading.durationMs)
      if (counted || key === null || needed === undefined || heard < needed) return false
      counted = true
      return true
    },
    /** Heard time of the current play (ms). */
    get heardMs() {
      return heard
    },
  }
}
