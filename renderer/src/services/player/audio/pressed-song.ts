import type { Track } from './track'

/** A song pressed and not played is kept this long for its play (as its head is: `HEAD_KEEP_MS`). */
export const PRESS_KEEP_MS = 10_000

/**
 * The song whose row was pressed, for the Web Audio output (`output.ts`): opened and its first chunk
 * read and decoded ahead of its play (`Track.prime`), nothing scheduled, so the play that follows only
 * schedules that chunk at the clock's next frame. One song at a time: another press lets the one before
 * go; so does `PRESS_KEEP_MS` with no play. It never touches the song playing or the following one.
 */
export function createPressedSong(deps: {
  newTrack: (url: string) => Track
  now: () => number
  /** The hidden element: `data-pressed` names the song kept for its play (for tests). */
  face: HTMLElement
}) {
  let kept: { track: Track; timer: ReturnType<typeof setTimeout> } | undefined

  function release() {
    if (!kept) return undefined
    const { track, timer } = kept
    kept = undefined
    clearTimeout(timer)
    delete deps.face.dataset.pressed
    return track
  }

  function drop() {
    release()?.dispose(deps.now())
  }

  return {
    /** A row of `url` pressed: its song opened and its first chunk made ready (kept `PRESS_KEEP_MS`). */
    press(url: string) {
      let track = kept?.track
      if (!track || track.url !== url || track.failed) {
        drop()
        const opened = deps.newTrack(url)
        deps.face.dataset.pressed = url
        // A song that cannot be opened is not kept: its play opens it again and reports the failure.
        void opened.prime().then((ready) => {
          if (!ready && kept?.track === opened) drop()
        })
        track = opened
      } else clearTimeout(kept?.timer)
      const mine = track
      const timer = setTimeout(() => {
        if (kept?.track === mine) drop()
      }, PRESS_KEEP_MS)
      kept = { track, timer }
    },

    /** The song the output is to play: the pressed one when it is that song (then no longer kept). */
    take(url: string): Track | undefined {
      return kept?.track.url === url ? release() : undefined
    },

    drop,
  }
}
