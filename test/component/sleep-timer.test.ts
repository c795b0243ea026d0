import { describe, expect, it } from 'vitest'
import { createSleepTimer } from '@renderer/services/player/sleep-timer'
import type { SleepView } from '@renderer/services/player/sleep-timer'

const FADE = 20_000

function setup() {
  let now = 1_000_000
  const timer = createSleepTimer({ now: () => now })
  return {
    timer,
    advance: (ms: number) => void (now += ms),
  }
}

/** Song `key` of album `albumId`, 3 minutes long, at `positionMs`. */
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

describe('sleep timer', () => {
  it('pauses after the minutes chosen, fading the last seconds while playing', () => {
    const { timer, advance } = setup()
    timer.arm({ kind: 'minutes', minutes: 15 }, view())
    expect(timer.step(view(), FADE)).toEqual({ remainingMs: 900_000, fade: false, stop: null })
    advance(900_000 - 19_000)
    expect(timer.step(view(), FADE)).toEqual({ remainingMs: 19_000, fade: true, stop: null })
    advance(19_000)
    expect(timer.step(view(), FADE).stop).toEqual({ rewind: false })
    expect(timer.mode).toBeNull()
  })

  it('counts paused time: a timer that runs out while paused ends, and does not fade', () => {
    const { timer, advance } = setup()
    timer.arm({ kind: 'minutes', minutes: 30 }, view())
    advance(29 * 60_000 + 50_000)
    expect(timer.step(view({ playing: false }), FADE)).toEqual({
      remainingMs: 10_000,
      fade: false,
      stop: null,
    })
    advance(10_000)
    expect(timer.step(view({ playing: false }), FADE).stop).not.toBeNull()
  })

  it('at the end of this song: fades its last seconds and pauses when the next one starts', () => {
    const { timer } = setup()
    timer.arm({ kind: 'song' }, view({ positionMs: 60_000 }))
    expect(timer.step(view({ positionMs: 100_000 }), FADE)).toEqual({
      remainingMs: 80_000,
      fade: false,
      stop: null,
    })
    expect(timer.step(view({ positionMs: 170_000 }), FADE)).toMatchObject({ remainingMs: 10_000, fade: true })
    expect(timer.step(view({ positionMs: 179_900 }), FADE).stop).toBeNull()
    expect(timer.step(view({ key: 'b', positionMs: 200 }), FADE).stop).toEqual({ rewind: true })
  })

  it('at the end of this song under repeat-one: the song starting again still ends it', () => {
    const { timer } = setup()
    timer.arm({ kind: 'song' }, view({ repeatOne: true, positionMs: 175_000 }))
    expect(timer.step(view({ repeatOne: true, positionMs: 179_500 }), FADE).stop).toBeNull()
    expect(timer.step(view({ repeatOne: true, positionMs: 150 }), FADE).stop).toEqual({ rewind: true })
  })

  it('follows the person to another song: Next far from the end is not the end of the song', () => {
    const { timer } = setup()
    timer.arm({ kind: 'song' }, view({ positionMs: 30_000 }))
    expect(timer.step(view({ key: 'b', positionMs: 0 }), FADE).stop).toBeNull()
    expect(timer.step(view({ key: 'b', positionMs: 175_000 }), FADE)).toMatchObject({ fade: true })
    expect(timer.step(view({ key: 'c', positionMs: 100 }), FADE).stop).toEqual({ rewind: true })
  })

  it('a seek back within a song does not end it', () => {
    const { timer } = setup()
    timer.arm({ kind: 'song' }, view({ positionMs: 100_000 }))
    expect(timer.step(view({ positionMs: 10_000 }), FADE).stop).toBeNull()
    expect(timer.step(view({ positionMs: 12_000 }), FADE)).toMatchObject({ remainingMs: 168_000 })
  })

  it('at the end of this album: plays on through the album, pauses when another album starts', () => {
    const { timer } = setup()
    timer.arm({ kind: 'album' }, view())
    // Not the album's last song: no end known yet.
    expect(timer.step(view({ positionMs: 179_000 }), FADE)).toEqual({
      remainingMs: null,
      fade: false,
      stop: null,
    })
    // The album's next song: plays on; it is the last (another album follows), so it fades.
    expect(timer.step(view({ key: 'b', nextAlbumId: 'album-2' }), FADE).stop).toBeNull()
    expect(timer.step(view({ key: 'b', positionMs: 170_000, nextAlbumId: 'album-2' }), FADE)).toMatchObject({
      remainingMs: 10_000,
      fade: true,
    })
    expect(timer.step(view({ key: 'c', albumId: 'album-2' }), FADE).stop).toEqual({ rewind: true })
  })

  it('at the end of the queue: pauses after the last song, also under repeat-all', () => {
    const { timer } = setup()
    timer.arm({ kind: 'queue' }, view())
    expect(timer.step(view({ positionMs: 179_000 }), FADE).remainingMs).toBeNull()
    expect(timer.step(view({ key: 'b', last: true }), FADE).stop).toBeNull()
    expect(timer.step(view({ key: 'b', last: true, positionMs: 175_000 }), FADE)).toMatchObject({
      fade: true,
    })
    // Repeat-all wraps to the first song: the queue has played out.
    expect(timer.step(view({ key: 'a', positionMs: 100 }), FADE).stop).toEqual({ rewind: true })
  })

  it('at the end of the queue under repeat-one: ends with this song', () => {
    const { timer } = setup()
    timer.arm({ kind: 'queue' }, view({ repeatOne: true }))
    expect(timer.step(view({ repeatOne: true, positionMs: 170_000 }), FADE)).toMatchObject({ fade: true })
    expect(timer.step(view({ repeatOne: true, positionMs: 179_800 }), FADE).stop).toBeNull()
    expect(timer.step(view({ repeatOne: true, positionMs: 0 }), FADE).stop).toEqual({ rewind: true })
  })

  it('does not fade while paused, and says nothing once cancelled', () => {
    const { timer } = setup()
    timer.arm({ kind: 'song' }, view())
    expect(timer.step(view({ positionMs: 175_000, playing: false }), FADE).fade).toBe(false)
    timer.cancel()
    expect(timer.step(view({ key: 'b' }), FADE)).toEqual({ remainingMs: null, fade: false, stop: null })
  })
})
