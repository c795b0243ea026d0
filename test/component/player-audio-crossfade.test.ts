import { describe, expect, it } from 'vitest'
import { ClockMap } from '@renderer/services/player/audio/clock-map'
import { fadeCurve, planCrossfade } from '@renderer/services/player/audio/crossfade'
import type { CrossfadeInput } from '@renderer/services/player/audio/crossfade'

const songA = { albumId: 1, duration: 200 }
const songB = { albumId: 2, duration: 180 }

/** The current song ends at clock 100 (exactly known), now is 80. */
const input = (changes: Partial<CrossfadeInput> = {}): CrossfadeInput => ({
  setting: 5,
  current: songA,
  next: songB,
  end: 100,
  foreseenEnd: 100,
  earliest: 80.3,
  ...changes,
})

describe('crossfade plan', () => {
  it('starts the next song the setting before the current one ends', () => {
    expect(planCrossfade(input())).toEqual({ start: 95, seconds: 5 })
    expect(planCrossfade(input({ setting: 12 }))).toEqual({ start: 88, seconds: 12 })
  })

  it('is gapless when off, on the exact last frame, and waits until that frame is known', () => {
    expect(planCrossfade(input({ setting: 0 }))).toEqual({ start: 100, seconds: 0 })
    expect(planCrossfade(input({ setting: 0, end: undefined, foreseenEnd: 100.01 }))).toBeUndefined()
  })

  it('never crossfades consecutive tracks of one album', () => {
    const first = { albumId: 7, trackNumber: 3, duration: 200 }
    const second = { albumId: 7, trackNumber: 4, duration: 200 }
    expect(planCrossfade(input({ current: first, next: second }))).toEqual({ start: 100, seconds: 0 })
    // Same album, out of order (shuffle): a crossfade.
    expect(planCrossfade(input({ current: second, next: first }))).toEqual({ start: 95, seconds: 5 })
  })

  it('crossfades on the foreseen end before the exact one is known', () => {
    expect(planCrossfade(input({ end: undefined, foreseenEnd: 100.02 }))!.start).toBeCloseTo(95.02, 9)
  })

  it('shortens it to half of the shorter song and to what is left of the current one', () => {
    expect(planCrossfade(input({ setting: 12, next: { duration: 8 } }))).toEqual({ start: 96, seconds: 4 })
    expect(planCrossfade(input({ setting: 12, current: { duration: 6 } }))).toEqual({ start: 97, seconds: 3 })
    // A seek to 2 s before the end: the next song comes in as soon as it can.
    const late = planCrossfade(input({ earliest: 98.3 }))!
    expect(late.start).toBe(98.3)
    expect(late.seconds).toBeCloseTo(1.7, 9)
    // Too late for any overlap: gapless.
    expect(planCrossfade(input({ earliest: 99.95 }))).toEqual({ start: 100, seconds: 0 })
  })

  it('fades with equal power: in rises 0 → 1, out falls 1 → 0, their powers sum to 1', () => {
    const fadeIn = fadeCurve('in')
    const fadeOut = fadeCurve('out')
    expect(fadeIn[0]).toBe(0)
    expect(fadeIn.at(-1)).toBe(1)
    expect(fadeOut[0]).toBe(1)
    expect(fadeOut.at(-1)).toBeCloseTo(0, 6)
    for (let i = 0; i < fadeIn.length; i++) {
      expect(fadeIn[i] ** 2 + fadeOut[i] ** 2).toBeCloseTo(1, 6)
      if (i > 0) expect(fadeIn[i]).toBeGreaterThan(fadeIn[i - 1])
    }
    // At the middle each is at −3 dB, not −6 dB as a linear fade would be.
    expect(fadeCurve('in', 3)[1]).toBeCloseTo(Math.SQRT1_2, 6)
  })
})

describe('song position on the audio clock', () => {
  it('runs at the speed from where the song started', () => {
    const map = new ClockMap()
    map.reset(10, 30, 1.5)
    expect(map.position(9)).toBe(30)
    expect(map.position(12)).toBe(33)
    // The song's end (at 120 s) on the clock.
    expect(map.clockAt(120)).toBe(70)
  })

  it('keeps the old speed until a speed change is heard, then the new one from there', () => {
    const map = new ClockMap()
    map.reset(0, 0, 1)
    map.add(4, 4, 2)
    expect(map.position(3)).toBe(3)
    expect(map.speedAt(3)).toBe(1)
    expect(map.position(5)).toBe(6)
    expect(map.speedAt(5)).toBe(2)
    expect(map.clockAt(100)).toBe(52)
    map.add(6, 8, 0.5)
    expect(map.position(5)).toBe(6)
    expect(map.position(8)).toBe(9)
    // A seek starts a new map.
    map.reset(20, 50, 0.5)
    expect(map.position(22)).toBe(51)
  })
})
