import { describe, expect, it } from 'vitest'
import {
  addToQueue,
  clearQueue,
  createQueue,
  currentEntry,
  currentItem,
  cycleRepeat,
  indexOfKey,
  jumpTo,
  moveInQueue,
  next,
  peekNext,
  playNext,
  playNow,
  previous,
  queueFromJSON,
  queueToJSON,
  removeFromQueue,
  setQueue,
  setRepeat,
  setShuffle,
  shouldRestartOnPrevious,
  upNext,
  type QueueState,
  type RepeatMode,
} from '@shared/player/queue'

type Song = { id: number; name?: string }
const songs = (...ids: number[]): Song[] => ids.map((id) => ({ id }))
const ids = (state: QueueState<Song>): number[] => state.entries.map((entry) => entry.item.id)
const currentId = (state: QueueState<Song> | null): number | undefined =>
  state ? currentItem(state)?.id : undefined

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function queueOf(list: number[], start = 0, repeat: RepeatMode = 'off'): QueueState<Song> {
  return setQueue(createQueue<Song>({ repeat }), songs(...list), { startIndex: start })
}

/** Plays through with auto-advance and returns the ids played, starting with the current one. */
function playThrough(state: QueueState<Song>, steps: number, random = seeded(1)): number[] {
  const played = [currentId(state)!]
  let s: QueueState<Song> | null = state
  for (let k = 0; k < steps && s; k++) {
    s = next(s, { auto: true, random })
    if (s) played.push(currentId(s)!)
  }
  return played
}

describe('queue', () => {
  it('starts empty with nothing current', () => {
    const state = createQueue<Song>()
    expect(state.entries).toEqual([])
    expect(currentEntry(state)).toBeUndefined()
    expect(next(state)).toBeNull()
    expect(previous(state)).toBeNull()
    expect(peekNext(state)).toBeUndefined()
  })

  it('replaces the queue with Play all at a start index and keeps the modes', () => {
    const before = setRepeat(createQueue<Song>(), 'all')
    const state = setQueue(before, songs(1, 2, 3), { startIndex: 2 })
    expect(ids(state)).toEqual([1, 2, 3])
    expect(currentId(state)).toBe(3)
    expect(state.repeat).toBe('all')
    expect(setQueue(state, songs(4, 5), { startIndex: 9 }).current).toBe(0)
    expect(setQueue(state, []).entries).toEqual([])
  })

  it('gives every entry a unique key, even for the same song twice', () => {
    let state = queueOf([1, 1])
    state = addToQueue(state, { id: 1 })
    const keys = state.entries.map((entry) => entry.key)
    expect(new Set(keys).size).toBe(3)
    expect(setQueue(state, songs(1)).entries[0].key).not.toBe(keys[0])
  })

  it('does not change the state it is given', () => {
    const state = queueOf([1, 2, 3])
    const copy = JSON.parse(JSON.stringify(state))
    playNow(state, { id: 9 })
    removeFromQueue(state, state.entries[0].key)
    moveInQueue(state, 0, 2)
    setShuffle(state, true, { random: seeded(2) })
    next(state)
    expect(state).toEqual(copy)
  })

  describe('adding', () => {
    it('plays a song now by inserting it after the current one and jumping to it', () => {
      const state = playNow(queueOf([1, 2, 3], 1), { id: 9 })
      expect(ids(state)).toEqual([1, 2, 9, 3])
      expect(currentId(state)).toBe(9)
    })

    it('plays several songs now, the first becoming current', () => {
      const state = playNow(queueOf([1, 2]), songs(8, 9))
      expect(ids(state)).toEqual([1, 8, 9, 2])
      expect(currentId(state)).toBe(8)
    })

    it('queues a song to play next without changing the current one', () => {
      let state = playNext(queueOf([1, 2, 3]), { id: 9 })
      expect(ids(state)).toEqual([1, 9, 2, 3])
      expect(currentId(state)).toBe(1)
      state = playNext(state, { id: 8 })
      expect(ids(state)).toEqual([1, 8, 9, 2, 3])
      expect(upNext(state).map((entry) => entry.item.id)).toEqual([8, 9, 2, 3])
    })

    it('adds songs to the end of the queue', () => {
      const state = addToQueue(queueOf([1, 2], 1), songs(3, 4))
      expect(ids(state)).toEqual([1, 2, 3, 4])
      expect(currentId(state)).toBe(2)
    })

    it('makes the first song current when adding to an empty queue', () => {
      expect(currentId(addToQueue(createQueue<Song>(), songs(5, 6)))).toBe(5)
      expect(currentId(playNext(createQueue<Song>(), { id: 7 }))).toBe(7)
      expect(currentId(playNow(createQueue<Song>(), { id: 8 }))).toBe(8)
    })

    it('ignores an empty list of songs', () => {
      const state = queueOf([1])
      expect(addToQueue(state, [])).toBe(state)
      expect(playNext(state, [])).toBe(state)
    })
  })

  describe('removing', () => {
    const state = queueOf([1, 2, 3, 4], 2)
    const keyOf = (id: number) => state.entries.find((entry) => entry.item.id === id)!.key

    it('keeps the current song when removing one before it', () => {
      const after = removeFromQueue(state, keyOf(1))
      expect(ids(after)).toEqual([2, 3, 4])
      expect(currentId(after)).toBe(3)
      expect(after.current).toBe(1)
    })

    it('keeps the current song when removing one after it', () => {
      const after = removeFromQueue(state, keyOf(4))
      expect(ids(after)).toEqual([1, 2, 3])
      expect(currentId(after)).toBe(3)
    })

    it('moves on to the following song when removing the current one', () => {
      expect(currentId(removeFromQueue(state, keyOf(3)))).toBe(4)
    })

    it('falls back to the new last song when removing the current last one', () => {
      const last = jumpTo(state, keyOf(4))
      expect(currentId(removeFromQueue(last, keyOf(4)))).toBe(3)
    })

    it('removes several entries at once and empties the queue', () => {
      const after = removeFromQueue(state, [keyOf(1), keyOf(3)])
      expect(ids(after)).toEqual([2, 4])
      expect(currentId(after)).toBe(4)
      const empty = removeFromQueue(
        state,
        state.entries.map((entry) => entry.key),
      )
      expect(empty.entries).toEqual([])
      expect(empty.current).toBe(-1)
    })

    it('removes only the chosen copy of a song queued twice', () => {
      const twice = queueOf([1, 2, 1], 0)
      const after = removeFromQueue(twice, twice.entries[2].key)
      expect(ids(after)).toEqual([1, 2])
      expect(after.entries[0].key).toBe(twice.entries[0].key)
    })

    it('ignores unknown keys', () => {
      expect(removeFromQueue(state, 'nope')).toBe(state)
    })

    it('clears the queue but keeps the modes', () => {
      const cleared = clearQueue(setRepeat(state, 'one'))
      expect(cleared.entries).toEqual([])
      expect(cleared.current).toBe(-1)
      expect(cleared.repeat).toBe('one')
    })
  })

  describe('moving', () => {
    const state = queueOf([1, 2, 3, 4, 5], 2)

    it('moves an entry so it ends up at the target index', () => {
      expect(ids(moveInQueue(state, 0, 3))).toEqual([2, 3, 4, 1, 5])
      expect(ids(moveInQueue(state, 4, 1))).toEqual([1, 5, 2, 3, 4])
    })

    it('keeps the current song current whichever entry moves', () => {
      for (let from = 0; from < 5; from++) {
        for (let to = 0; to < 5; to++) expect(currentId(moveInQueue(state, from, to))).toBe(3)
      }
    })

    it('ignores out-of-range and no-op moves', () => {
      expect(moveInQueue(state, -1, 2)).toBe(state)
      expect(moveInQueue(state, 0, 5)).toBe(state)
      expect(moveInQueue(state, 1.5, 2)).toBe(state)
      expect(moveInQueue(state, 2, 2)).toBe(state)
    })
  })

  describe('next and previous', () => {
    it('walks forward and back through the queue', () => {
      const state = queueOf([1, 2, 3])
      expect(playThrough(state, 5)).toEqual([1, 2, 3])
      expect(currentId(previous(queueOf([1, 2, 3], 2)))).toBe(2)
    })

    it('stops at the end and at the start with repeat off', () => {
      expect(next(queueOf([1, 2], 1))).toBeNull()
      expect(previous(queueOf([1, 2], 0))).toBeNull()
    })

    it('wraps around at both ends with repeat all', () => {
      expect(currentId(next(queueOf([1, 2, 3], 2, 'all')))).toBe(1)
      expect(currentId(previous(queueOf([1, 2, 3], 0, 'all')))).toBe(3)
      expect(playThrough(queueOf([1, 2], 0, 'all'), 4)).toEqual([1, 2, 1, 2, 1])
    })

    it('repeats the current song when it ends with repeat one, but moves on when skipped', () => {
      const state = queueOf([1, 2, 3], 2, 'one')
      expect(next(state, { auto: true })).toBe(state)
      expect(currentId(next(state))).toBe(1)
      expect(currentId(previous(queueOf([1, 2, 3], 0, 'one')))).toBe(3)
      expect(peekNext(state, { auto: true })?.item.id).toBe(3)
    })

    it('peeks at the song that will play next without moving', () => {
      expect(peekNext(queueOf([1, 2], 0))?.item.id).toBe(2)
      expect(peekNext(queueOf([1, 2], 1))).toBeUndefined()
      expect(peekNext(queueOf([1, 2], 1, 'all'))?.item.id).toBe(1)
    })

    it('jumps to an entry by key', () => {
      const state = queueOf([1, 2, 3])
      expect(currentId(jumpTo(state, state.entries[2].key))).toBe(3)
      expect(jumpTo(state, 'missing')).toBe(state)
      expect(indexOfKey(state, state.entries[1].key)).toBe(1)
    })

    it('restarts on previous only after more than three seconds', () => {
      expect(shouldRestartOnPrevious(3001)).toBe(true)
      expect(shouldRestartOnPrevious(3000)).toBe(false)
      expect(shouldRestartOnPrevious(0)).toBe(false)
      expect(shouldRestartOnPrevious(1500, 1000)).toBe(true)
    })
  })

  describe('repeat', () => {
    it('cycles off, all, one', () => {
      let state = createQueue<Song>()
      const modes: RepeatMode[] = []
      for (let k = 0; k < 4; k++) {
        state = cycleRepeat(state)
        modes.push(state.repeat)
      }
      expect(modes).toEqual(['all', 'one', 'off', 'all'])
    })

    it('ignores an unknown mode', () => {
      const state = createQueue<Song>()
      expect(setRepeat(state, 'sometimes' as RepeatMode)).toBe(state)
    })
  })

  describe('shuffle', () => {
    const list = Array.from({ length: 20 }, (_, i) => i + 1)

    it('keeps the current song current and first when turned on', () => {
      const state = setShuffle(queueOf(list, 7), true, { random: seeded(3) })
      expect(state.shuffle).toBe(true)
      expect(state.current).toBe(0)
      expect(currentId(state)).toBe(8)
      expect([...ids(state)].sort((a, b) => a - b)).toEqual(list)
      expect(ids(state)).not.toEqual([8, ...list.filter((id) => id !== 8)])
    })

    it('plays every song once before any repeats', () => {
      for (let seed = 1; seed <= 5; seed++) {
        const state = setShuffle(queueOf(list, 0, 'all'), true, { random: seeded(seed) })
        const played = playThrough(state, list.length - 1, seeded(seed))
        expect(new Set(played).size).toBe(list.length)
      }
    })

    it('draws a new order for each cycle with repeat all, never repeating the song just played', () => {
      const random = seeded(11)
      let state: QueueState<Song> | null = setShuffle(queueOf(list, 0, 'all'), true, { random })
      const cycles: number[][] = []
      for (let cycle = 0; cycle < 4 && state; cycle++) {
        const played: number[] = []
        for (let k = 0; k < list.length && state; k++) {
          played.push(currentId(state)!)
          state = next(state, { auto: true, random })
        }
        cycles.push(played)
      }
      for (const played of cycles) expect(new Set(played).size).toBe(list.length)
      for (let k = 1; k < cycles.length; k++) {
        expect(cycles[k]).not.toEqual(cycles[k - 1])
        expect(cycles[k][0]).not.toBe(cycles[k - 1][list.length - 1])
      }
    })

    it('stops after one cycle with repeat off', () => {
      const state = setShuffle(queueOf([1, 2, 3], 0), true, { random: seeded(4) })
      expect(playThrough(state, 10)).toHaveLength(3)
    })

    it('restores the original order and keeps the current song when turned off', () => {
      const shuffled = setShuffle(queueOf(list, 4), true, { random: seeded(5) })
      const moved = next(next(shuffled)!)!
      const playing = currentId(moved)
      const restored = setShuffle(moved, false)
      expect(ids(restored)).toEqual(list)
      expect(currentId(restored)).toBe(playing)
      expect(restored.originalOrder).toBeNull()
    })

    it('keeps songs added and removed while shuffled when restoring the order', () => {
      let state = setShuffle(queueOf([1, 2, 3, 4], 1), true, { random: seeded(6) })
      state = playNext(state, { id: 9 })
      expect(state.entries[state.current + 1].item.id).toBe(9)
      state = addToQueue(state, { id: 10 })
      state = removeFromQueue(state, state.entries.find((entry) => entry.item.id === 4)!.key)
      const restored = setShuffle(state, false)
      expect(ids(restored)).toEqual([1, 2, 9, 3, 10])
      expect(currentId(restored)).toBe(2)
    })

    it('starts Play all at the chosen song, or a random one, with the rest shuffled', () => {
      const shuffling = setShuffle(createQueue<Song>(), true)
      const chosen = setQueue(shuffling, songs(...list), { startIndex: 5, random: seeded(7) })
      expect(currentId(chosen)).toBe(6)
      expect(chosen.current).toBe(0)
      const random = setQueue(shuffling, songs(...list), { random: seeded(8) })
      expect([...ids(random)].sort((a, b) => a - b)).toEqual(list)
      expect(ids(setShuffle(random, false))).toEqual(list)
    })

    it('handles shuffle on an empty or single-song queue', () => {
      const empty = setShuffle(createQueue<Song>(), true)
      expect(empty.entries).toEqual([])
      expect(currentId(addToQueue(empty, { id: 1 }))).toBe(1)
      const single = setShuffle(queueOf([1], 0, 'all'), true)
      expect(currentId(next(single))).toBe(1)
    })
  })

  describe('serialisation', () => {
    it('round-trips queue, current entry and modes through JSON', () => {
      let state = setShuffle(queueOf([1, 2, 3, 4], 1, 'all'), true, { random: seeded(9) })
      state = playNext(state, { id: 5, name: 'five' } as Song)
      const restored = queueFromJSON<Song>(JSON.parse(JSON.stringify(queueToJSON(state))))
      expect(restored).toEqual(state)
      expect(ids(setShuffle(restored, false))).toEqual(ids(setShuffle(state, false)))
      const added = addToQueue(restored, { id: 6 })
      expect(new Set(added.entries.map((entry) => entry.key)).size).toBe(added.entries.length)
    })

    it('returns an empty queue for data that is not a queue', () => {
      for (const data of [null, undefined, 42, 'queue', []]) {
        expect(queueFromJSON<Song>(data)).toEqual(createQueue<Song>())
      }
    })

    it('repairs damaged data', () => {
      const restored = queueFromJSON<Song>({
        entries: [
          { key: 'e1', item: { id: 1 } },
          { key: 'e1', item: { id: 2 } },
          { item: { name: 'no id' } },
          'junk',
          { item: { id: 'x' } },
        ],
        current: 99,
        repeat: 'sometimes',
        shuffle: true,
        originalOrder: ['gone', 'e1'],
        nextKey: 'soon',
      })
      expect(restored.entries.map((entry) => entry.item.id)).toEqual([1, 2, 'x'])
      expect(new Set(restored.entries.map((entry) => entry.key)).size).toBe(3)
      expect(restored.current).toBe(2)
      expect(restored.repeat).toBe('off')
      expect(restored.originalOrder).toEqual(restored.entries.map((entry) => entry.key))
      const added = addToQueue(restored, { id: 3 })
      expect(new Set(added.entries.map((entry) => entry.key)).size).toBe(4)
    })

    it('checks items with the given guard', () => {
      const isSong = (value: unknown): value is Song => typeof (value as Song)?.id === 'number'
      const restored = queueFromJSON<Song>(
        {
          entries: [
            { key: 'a', item: { id: '1' } },
            { key: 'b', item: { id: 2 } },
          ],
        },
        isSong,
      )
      expect(ids(restored)).toEqual([2])
      expect(restored.current).toBe(0)
    })
  })
})
