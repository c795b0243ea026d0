import { describe, expect, it } from 'vitest'
import { createListenCounter, heardNeeded } from '@shared/player/listen-rule'

/** Plays from `from` to `to` (ms) in 250 ms readings; answers how many readings counted a listen. */
function play(
  counter: ReturnType<typeof createListenCounter>,
  key: string,
  durationMs: number,
  from: number,
  to: number,
) {
  let listens = 0
  for (let p = from; p <= to; p += 250) {
    if (counter.observe({ key, positionMs: p, durationMs, playing: true })) listens++
  }
  return listens
}

describe('listen rule', () => {
  it('needs half a song, at most 4 minutes, and nothing for a song under 30 s', () => {
    expect(heardNeeded(29_999)).toBeUndefined()
    expect(heardNeeded(30_000)).toBe(15_000)
    expect(heardNeeded(200_000)).toBe(100_000)
    expect(heardNeeded(600_000)).toBe(240_000)
  })

  it('counts a song once half of it was heard, and once only', () => {
    const counter = createListenCounter()
    expect(play(counter, 'a', 180_000, 0, 89_750)).toBe(0)
    expect(play(counter, 'a', 180_000, 90_000, 180_000)).toBe(1)
  })

  it('counts a long song after 4 minutes', () => {
    const counter = createListenCounter()
    expect(play(counter, 'a', 900_000, 0, 239_750)).toBe(0)
    expect(play(counter, 'a', 900_000, 240_000, 240_000)).toBe(1)
  })

  it('never counts a song under 30 s, heard whole', () => {
    const counter = createListenCounter()
    expect(play(counter, 'a', 29_000, 0, 29_000)).toBe(0)
  })

  it('a seek forward adds nothing: jumping to the end of a song is not hearing it', () => {
    const counter = createListenCounter()
    expect(play(counter, 'a', 180_000, 0, 10_000)).toBe(0)
    // Seek to 2:30 and play to the end: 10 s + 30 s heard, under 90 s.
    expect(play(counter, 'a', 180_000, 150_000, 180_000)).toBe(0)
    expect(counter.heardMs).toBeLessThan(41_000)
  })

  it('a seek back does not take heard time away, and what is heard again counts', () => {
    const counter = createListenCounter()
    play(counter, 'a', 180_000, 0, 60_000)
    expect(play(counter, 'a', 180_000, 0, 29_750)).toBe(0)
    expect(play(counter, 'a', 180_000, 30_000, 30_250)).toBe(1)
  })

  it('paused time is not heard', () => {
    const counter = createListenCounter()
    play(counter, 'a', 180_000, 0, 10_000)
    for (let i = 0; i < 1000; i++)
      counter.observe({ key: 'a', positionMs: 10_000, durationMs: 180_000, playing: false })
    expect(counter.heardMs).toBe(10_000)
  })

  it('another song starts its own count; the same song played again (repeat one) counts again', () => {
    const counter = createListenCounter()
    expect(play(counter, 'a', 60_000, 0, 60_000)).toBe(1)
    expect(play(counter, 'a', 60_000, 0, 60_000)).toBe(1)
    expect(play(counter, 'b', 60_000, 0, 20_000)).toBe(0)
    expect(counter.heardMs).toBe(20_000)
  })
})
