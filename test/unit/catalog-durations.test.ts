import { describe, expect, it } from 'vitest'
import { JsonText } from '@main/core/api/sliced-json'
import { totalDuration } from '@main/core/catalog/durations'

const text = (json: string) => new JsonText(new TextEncoder().encode(json))

describe('a playlist’s total time from raw songs', async () => {
  it('adds the songs’ own durations, whether parsed or kept as JSON text', async () => {
    const songs = [
      { id: 1, duration: 1000 },
      text('{"id":2,"album":{"id":9,"name":"A"},"duration" : 2500,"name":"x"}'),
      text('{"id":3,\n"duration":\t500.5}'),
    ]
    expect(await totalDuration(songs)).toBe(4000.5)
  })

  it('skips songs that do not say how long they are, or say it wrongly', async () => {
    const songs = [
      { id: 1, duration: -5 },
      { id: 2, duration: '300' },
      { id: 3 },
      null,
      text('{"id":4,"duration":null}'),
      text('{"id":5,"name":"duration"}'),
      { id: 6, duration: 700 },
    ]
    expect(await totalDuration(songs)).toBe(700)
  })

  it('gives the event loop a turn every 5,000 songs', async () => {
    let turns = 0
    const songs = Array.from({ length: 12_001 }, () => ({ duration: 1 }))
    expect(await totalDuration(songs, async () => void turns++)).toBe(12_001)
    expect(turns).toBe(2)
  })

  it('is undefined when no song says', async () => {
    expect(await totalDuration([{ id: 1 }, text('{"id":2}')])).toBeUndefined()
    expect(await totalDuration([])).toBeUndefined()
  })
})
