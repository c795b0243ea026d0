/** The output's tick (read-ahead, handover, position): at most this far apart (s), sooner when asked. */
export const TICK_SECONDS = 1
/** A tick waits this much past its moment: the audio clock moves in device callbacks, behind the wall's. */
const TICK_MARGIN_MS = 15

/**
 * The Web Audio output's tick (`output.ts`): one waiting at a time, `start(seconds)` of the audio clock
 * from now (at most `TICK_SECONDS`) unless one already waits. Each tick asks for the next: as the song's
 * next whole second begins (the position shown moves once a second), or sooner for a handover.
 */
export function createTicker(tick: () => void) {
  let timer: ReturnType<typeof setTimeout> | undefined
  return {
    start(seconds = TICK_SECONDS) {
      const wait = Math.min(Math.max(0, seconds), TICK_SECONDS)
      timer ??= setTimeout(
        () => {
          timer = undefined
          tick()
        },
        Math.ceil(wait * 1000) + TICK_MARGIN_MS,
      )
    },
    stop() {
      clearTimeout(timer)
      timer = undefined
    },
  }
}

/** Clock seconds until the song's next whole second at `position` (song seconds) played at `speed`. */
export function untilNextSecond(position: number, speed: number): number {
  return (Math.floor(position) + 1 - position) / speed
}
