import { describe, expect, it } from 'vitest'
import { autoplayWanted } from '@renderer/services/player/autoplay'
import { createSleepTimer } from '@renderer/services/player/sleep-timer'
import type { SleepView } from '@renderer/services/player/sleep-timer'

/**
 * The sleep timer and autoplay when things change under them: the machine sleeping past the end, the
 * queue edited, a sleep timer waiting for the end of the queue while autoplay would extend it.
 */

const FADE = 20_000

function setup() {
  let now = 1_000_000
  const timer = createSleepTimer({ now: () => now })
  return { timer, advance: (ms: number) => void (now += ms) }
}

function view(over: Partial<SleepView> = {}): SleepView {
  return {
    key: 'a',
    albumId: 'album-1',
    positionMs: 0,
    durationMs: 180_000,
    playing: true,
    repeatOne: false,
    last: false,
    nextAlbumId: 'album-1',
    ...over,
  }
}

describe('sleep timer under change', () => {
  it('a machine that slept past the end pauses at the first look after waking, without a fade', () => {
    const { timer, advance } = setup()
    timer.arm({ kind: 'minutes', minutes: 30 }, view())
    advance(10 * 60_000)
    expect(timer.step(view({ positionMs: 60_000 }), FADE).stop).toBeNull()
    // Asleep for two hours (the wall clock moved on; the song's position barely did).
    advance(2 * 3_600_000)
    expect(timer.step(view({ positionMs: 60_500 }), FADE)).toEqual({
      remainingMs: 0,
      fade: false,
      stop: { rewind: false },
    })
    expect(timer.mode).toBeNull()
  })

  it('at the end of the queue: songs added after the timer was set play before it pauses', () => {
    const { timer } = setup()
    // Set on the last song; then the person adds two more: this one is no longer the last.
    timer.arm({ kind: 'queue' }, view({ last: true }))
    expect(timer.step(view({ positionMs: 175_000, last: false }), FADE)).toMatchObject({
      fade: false,
      stop: null,
    })
    expect(timer.step(view({ key: 'b', last: false }), FADE).stop).toBeNull()
    expect(timer.step(view({ key: 'c', last: true }), FADE).stop).toBeNull()
    expect(timer.step(view({ key: 'c', last: true, positionMs: 175_000 }), FADE)).toMatchObject({
      fade: true,
    })
    // Nothing follows the last song (the queue ended): the player reports nothing current.
    expect(timer.step(view({ key: null, positionMs: 0, playing: false }), FADE).stop).toEqual({
      rewind: true,
    })
  })

  it('at the end of this song: the queue edited around it (songs removed after it) changes nothing', () => {
    const { timer } = setup()
    timer.arm({ kind: 'song' }, view())
    expect(timer.step(view({ positionMs: 100_000, last: true, nextAlbumId: null }), FADE).stop).toBeNull()
    expect(timer.step(view({ positionMs: 170_000, last: true }), FADE)).toMatchObject({ fade: true })
  })
})

describe('autoplay under change', () => {
  const base = { enabled: true, repeat: 'off' as const, left: 1, hasSong: true }
  it('adds nothing while a sleep timer waits for the end of the queue, and adds again once it is gone', () => {
    expect(autoplayWanted({ ...base, sleepAtQueueEnd: true })).toBe(false)
    expect(autoplayWanted({ ...base, sleepAtQueueEnd: false })).toBe(true)
  })
})
