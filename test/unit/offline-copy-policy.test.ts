import { describe, expect, it } from 'vitest'
import {
  AHEAD_GRACE_MS,
  KEEP_REST_BYTES,
  LEFT_GRACE_MS,
  nearlyDone,
  planCopies,
} from '@main/core/media/copy-policy'
import type { CopyView } from '@main/core/media/copy-policy'

const MB = 1024 * 1024
const NOW = 100_000

/** A copy of a 40 MB song (a few minutes of WAV) with a tenth of it in, left by the player `idle` ms ago. */
const copy = (name: string, over: Partial<CopyView> = {}, idle = 0): CopyView & { name: string } => ({
  name,
  readers: 0,
  current: false,
  played: true,
  heldAt: NOW - idle,
  received: 4 * MB,
  total: 40 * MB,
  ...over,
})
const stopped = (copies: Array<CopyView & { name: string }>, now = NOW) =>
  planCopies(copies, now).stop.map((c) => c.name)

describe('planCopies', () => {
  it('stops a copy of a song the player left once its short grace ran out', () => {
    expect(stopped([copy('a', {}, LEFT_GRACE_MS - 1)])).toEqual([])
    expect(planCopies([copy('a', {}, LEFT_GRACE_MS - 1000)], NOW).recheckIn).toBe(1000)
    expect(stopped([copy('a', {}, LEFT_GRACE_MS)])).toEqual(['a'])
  })

  it('keeps a copy that is read, or whose song the player has (paused too), however long ago it was read', () => {
    expect(
      stopped([copy('read', { readers: 1 }, 60_000), copy('paused', { current: true }, 600_000)]),
    ).toEqual([])
    expect(planCopies([copy('read', { readers: 1 }, 60_000)], NOW).recheckIn).toBeUndefined()
  })

  it('keeps a copy that is nearly done: three quarters in, or little left', () => {
    expect(stopped([copy('most', { received: 30 * MB }, 60_000)])).toEqual([])
    expect(stopped([copy('short', { received: MB, total: MB + KEEP_REST_BYTES }, 60_000)])).toEqual([])
    expect(stopped([copy('short', { received: 0, total: KEEP_REST_BYTES + 1 }, 60_000)])).toEqual(['short'])
    expect(nearlyDone({ received: 29 * MB, total: 40 * MB })).toBe(false)
    // Not knowing the size yet, it cannot be nearly done.
    expect(nearlyDone({ received: 39 * MB, total: undefined })).toBe(false)
  })

  it('gives the next song, opened ahead of its turn and not played yet, a longer grace', () => {
    const ahead = (idle: number) => copy('next', { played: false }, idle)
    expect(stopped([ahead(30_000)])).toEqual([])
    expect(planCopies([ahead(30_000)], NOW).recheckIn).toBe(AHEAD_GRACE_MS - 30_000)
    expect(stopped([ahead(AHEAD_GRACE_MS)])).toEqual(['next'])
  })

  it('copies two songs at once: a third stops the one unread the longest, never one read or nearly done', () => {
    const playing = copy('playing', { readers: 1, current: true })
    const older = copy('older', { played: false }, 2000)
    const newer = copy('newer', { played: false }, 1000)
    expect(stopped([older, playing])).toEqual([])
    expect(stopped([newer, older, playing])).toEqual(['older'])
    expect(stopped([newer, older, playing, copy('read', { readers: 1 })])).toEqual(['older', 'newer'])
    const most = copy('most', { received: 35 * MB }, 9000)
    expect(stopped([most, newer, playing])).toEqual(['newer'])
    // All held: none stops (the cap gives way to what is being listened to).
    expect(stopped([playing, copy('b', { readers: 1 }), copy('c', { readers: 2 })])).toEqual([])
  })

  it('counts a copy whose grace ran out as stopped before applying the limit', () => {
    const gone = copy('gone', {}, LEFT_GRACE_MS)
    const waiting = copy('waiting', {}, 1000)
    const playing = copy('playing', { current: true })
    expect(stopped([gone, waiting, playing])).toEqual(['gone'])
    expect(planCopies([gone, waiting, playing], NOW).recheckIn).toBe(LEFT_GRACE_MS - 1000)
  })
})
