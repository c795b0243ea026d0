/**
 * The sleep timer's rules, pure (no Vue, no audio): the player store's `stores/sleep-timer.ts` feeds it
 * what plays a few times a second and does what it answers (fade, pause).
 *
 * - `minutes`: pauses that many minutes after it was set, on the wall clock: paused time counts (the UI
 *   says so), so a timer that runs out while paused simply ends.
 * - `song`, `album`, `queue`: pauses once the current song, the last song of this album, or the last song
 *   of the queue has played to its end (the next one, already started on the audio clock, is paused at
 *   once and put back to its start). Under repeat-one every mode ends with this song: it is all that plays.
 *   A song left by the person (Next, a click) far from its end has not ended: the timer follows them.
 * - The last `fadeMs` before the pause fade out (while playing, when the end is known).
 */

export const SLEEP_MINUTES = [15, 30, 45, 60, 90] as const
/** A custom timer: 1 minute to 12 hours. */
export const SLEEP_CUSTOM_MAX_MINUTES = 720

export type SleepMode =
  { kind: 'minutes'; minutes: number } | { kind: 'song' } | { kind: 'album' } | { kind: 'queue' }

/** What plays, as the timer sees it. Positions are in song time (ms). */
export interface SleepView {
  /** The current queue entry's key (null: nothing). */
  key: string | null
  albumId: string | null
  positionMs: number
  durationMs: number
  playing: boolean
  repeatOne: boolean
  /** The current entry is the last of the queue's order (what plays after it wraps, or nothing does). */
  last: boolean
  /** The album of the song that follows this one when it ends (null: none, or no album). */
  nextAlbumId: string | null
}

export interface SleepDecision {
  /** Time left until the pause (ms), when known: always for `minutes`, on the final song for the others. */
  remainingMs: number | null
  /** The end is within the fade: the output should be fading to silence by `remainingMs` from now. */
  fade: boolean
  /** Pause now; the timer is done. `rewind`: the song now current started silently: back to its start. */
  stop: null | { rewind: boolean }
}

/** A song seen this close to its end and then back at its start has ended (repeat-one). */
const WRAP_MARGIN_MS = 2000
/**
 * Another entry current after the song was seen this close to its end: it ended (a crossfade moves on up
 * to 12 s early). Further from its end, the person moved on (Next, a click): the timer follows them.
 */
const MOVE_MARGIN_MS = 15_000

interface Armed {
  mode: SleepMode
  deadline: number
  albumId: string | null
  lastKey: string | null
  lastPositionMs: number
  lastDurationMs: number
  lastWasLast: boolean
}

export function createSleepTimer(clock: { now(): number }) {
  let armed: Armed | null = null

  /** Whether the song seen last time has ended by `view`: another entry plays, or it started again. */
  function songEnded(a: Armed, view: SleepView): 'moved' | 'wrapped' | null {
    if (a.lastKey === null || a.lastDurationMs <= 0) return null
    const left = a.lastDurationMs - a.lastPositionMs
    if (view.key !== a.lastKey) return left <= MOVE_MARGIN_MS ? 'moved' : null
    return left <= WRAP_MARGIN_MS && view.positionMs + 1000 < a.lastPositionMs ? 'wrapped' : null
  }

  /** Whether the current song is the final one the mode lets play. */
  function isFinal(a: Armed, view: SleepView): boolean {
    if (view.repeatOne) return true
    switch (a.mode.kind) {
      case 'song':
        return true
      case 'album':
        return a.albumId === null || view.nextAlbumId !== a.albumId
      case 'queue':
        return view.last
      case 'minutes':
        return false
    }
  }

  /** Whether the song that just ended was the final one. */
  function endedFinal(a: Armed, view: SleepView, how: 'moved' | 'wrapped'): boolean {
    if (how === 'wrapped' || view.repeatOne) return true
    switch (a.mode.kind) {
      case 'song':
        return true
      case 'album':
        return a.albumId === null || view.albumId !== a.albumId
      case 'queue':
        return a.lastWasLast
      case 'minutes':
        return false
    }
  }

  function remember(a: Armed, view: SleepView) {
    a.lastKey = view.key
    a.lastPositionMs = view.positionMs
    a.lastDurationMs = view.durationMs
    a.lastWasLast = view.last
  }

  return {
    /** Sets the timer (replacing any other) from what plays now. */
    arm(mode: SleepMode, view: SleepView) {
      armed = {
        mode,
        deadline: mode.kind === 'minutes' ? clock.now() + mode.minutes * 60_000 : 0,
        albumId: view.albumId,
        lastKey: null,
        lastPositionMs: 0,
        lastDurationMs: 0,
        lastWasLast: false,
      }
      remember(armed, view)
    },
    cancel() {
      armed = null
    },
    get mode(): SleepMode | null {
      return armed?.mode ?? null
    },
    /** What to do now, given what plays now. A `stop` disarms the timer. */
    step(view: SleepView, fadeMs: number): SleepDecision {
      const a = armed
      if (!a) return { remainingMs: null, fade: false, stop: null }
      if (a.mode.kind === 'minutes') {
        const remainingMs = Math.max(0, a.deadline - clock.now())
        if (remainingMs === 0) {
          armed = null
          return { remainingMs: 0, fade: false, stop: { rewind: false } }
        }
        return { remainingMs, fade: view.playing && remainingMs <= fadeMs, stop: null }
      }
      const how = songEnded(a, view)
      if (how && endedFinal(a, view, how)) {
        armed = null
        return { remainingMs: 0, fade: false, stop: { rewind: true } }
      }
      // The person chose another song: "this song" and "this album" are now the ones playing.
      if (view.key !== a.lastKey && !how) a.albumId = view.albumId
      remember(a, view)
      if (!isFinal(a, view) || view.durationMs <= 0) return { remainingMs: null, fade: false, stop: null }
      const remainingMs = Math.max(0, view.durationMs - view.positionMs)
      return { remainingMs, fade: view.playing && remainingMs <= fadeMs, stop: null }
    },
  }
}

export type SleepTimer = ReturnType<typeof createSleepTimer>
