import { planCrossfade } from './crossfade'
import { PREPARE_AHEAD_SECONDS, shouldPrepareNext } from './gapless'
import type { SongPair } from './gapless'
import { frameAfter } from './renderings'
import type { Track } from './track'

/**
 * The song after the current one, for the Web Audio output (`output.ts`): opened ahead, then started on
 * the frame where the current one ends (gapless) or crossfaded in before it (`crossfade.ts`); after the
 * handover, the song before plays out under its fade out until its end.
 */

/** How long a song that started on the previous one's last frame waits for the engine to take it. */
const ADOPT_GRACE_MS = 5000
/** A crossfade due at once (a seek near the end) starts this late: time for its first chunk. */
const NEXT_LEAD_SECONDS = 0.3
/** A song crossfaded out is let go this long after its foreseen end. */
const FADING_KEEP_SECONDS = 0.1

export interface NextSongDeps {
  context: () => AudioContext
  newTrack: (url: string) => Track
  applyLoudness: (track: Track) => void
  /** The crossfade setting (s; 0 = gapless). */
  crossfadeSeconds: () => number
  /** The current song while it plays on (not paused, not ended). */
  playing: () => Track | undefined
  /** The hidden element: `data-crossfade` says a crossfade is heard (for tests and the sound bench). */
  face: HTMLElement
}

export function createNextSong(deps: NextSongDeps) {
  let prepared: Track | undefined
  /** The song before the current one, playing out under a crossfade's fade out. */
  let fading: Track | undefined
  let url: string | undefined
  let songs: SongPair | undefined
  /** A following song that failed: not tried again until the engine names it again. */
  let failedUrl: string | undefined
  const now = () => deps.context().currentTime

  function open(next: string) {
    const track = deps.newTrack(next)
    prepared = track
    track.opened.then(
      () => {
        deps.applyLoudness(track)
        const current = deps.playing()
        if (prepared === track && current) schedule(current, track)
      },
      () => {
        if (prepared === track) {
          prepared = undefined
          failedUrl = next
        }
        track.dispose(now())
      },
    )
  }

  /** Plans the next song's start once both songs' lengths and the end are known. */
  function schedule(current: Track, next: Track) {
    if (next.startTime !== undefined || !Number.isFinite(next.duration) || !Number.isFinite(current.duration))
      return
    const plan = planCrossfade({
      setting: deps.crossfadeSeconds(),
      // Durations on the clock: a song at 2× lasts half as long.
      current: { ...songs?.current, duration: current.duration / current.speed },
      next: { ...songs?.next, duration: next.duration / next.speed },
      end: current.endTime,
      foreseenEnd: current.foreseenEnd(),
      earliest: frameAfter(deps.context(), NEXT_LEAD_SECONDS),
    })
    if (!plan) return
    next.startTime = plan.start
    next.crossfade = plan.seconds
    if (plan.seconds > 0) {
      next.fader.fadeIn(plan.start, plan.seconds)
      current.fader.fadeOut(plan.start, plan.seconds)
    }
    next
      .startAt(0, plan.start, () => plan.start)
      .catch(() => {
        if (prepared !== next) return
        failedUrl = next.url
        drop()
      })
  }

  /** Lets go of the prepared song: faded if it is already heard, and the current one kept at full level. */
  function drop() {
    const next = prepared
    if (!next) return
    prepared = undefined
    if (heard(next)) next.cut(now())
    else {
      next.dispose(now())
      deps.playing()?.fader.settle(now())
    }
  }

  const heard = (track: Track) => track.startTime !== undefined && track.startTime <= now()

  function dropFading() {
    fading?.cut(now())
    fading = undefined
    delete deps.face.dataset.crossfade
  }

  return {
    /** Names the song that follows the current one (none: undefined) and what decides a crossfade. */
    name(next: string | undefined, pair?: SongPair) {
      url = next
      songs = pair
      failedUrl = undefined
      if (prepared && prepared.url !== next) drop()
    },

    /** The clock time a tick is wanted by for the song playing out (let go just after its end). */
    get due(): number {
      return fading ? fading.foreseenEnd() + FADING_KEEP_SECONDS + 0.01 : Number.POSITIVE_INFINITY
    },

    /**
     * Each tick while `current` plays: opens the next song in time, plans its start, feeds the song
     * playing out. Answers the clock time the engine moves on: when the next song comes in (a
     * crossfade's start) or the current one's last frame.
     */
    tick(current: Track): number | undefined {
      if (fading) {
        if (now() > fading.foreseenEnd() + FADING_KEEP_SECONDS) dropFading()
        else void fading.pump()
      }
      const crossfade = Math.max(0, deps.crossfadeSeconds())
      // Clock seconds left: a song at 2× ends in half its song seconds.
      const left = (current.duration - current.position(now())) / current.speed
      const remaining = Number.isFinite(left) ? left : Number.POSITIVE_INFINITY
      if (
        url &&
        url !== failedUrl &&
        shouldPrepareNext(remaining, !!prepared, PREPARE_AHEAD_SECONDS + crossfade)
      )
        open(url)
      if (prepared && prepared.startTime === undefined) schedule(current, prepared)
      return prepared?.crossfade ? prepared.startTime : current.endTime
    },

    /**
     * The engine set `next` as the source: the prepared song when it is that one and already playing
     * (started on the last frame, or crossfading in), which then is the current one; `old` is let go, or
     * plays out under its fade.
     */
    adopt(next: string, old: Track): Track | undefined {
      const track = prepared
      if (!track || track.url !== next || track.startTime === undefined || now() < track.startTime - 0.05)
        return undefined
      prepared = undefined
      dropFading()
      if (track.crossfade > 0) {
        fading = old
        deps.face.dataset.crossfade = String(Math.round(track.crossfade * 100) / 100)
      } else old.dispose(now())
      return track
    },

    /** After the current song's `ended`: the prepared song is let go if the engine does not take it. */
    awaitAdoption() {
      const track = prepared
      if (!track) return false
      setTimeout(() => {
        if (prepared === track) drop()
      }, ADOPT_GRACE_MS)
      return true
    },

    /** The speed changed: a following song not heard yet is planned again at the current one's new end. */
    replan() {
      if (prepared && !heard(prepared)) drop()
    },

    /** Pause, seek, another song: neither the prepared song nor the one playing out go on. */
    stop() {
      dropFading()
      drop()
    },
  }
}
