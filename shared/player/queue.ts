/**
 * The play queue as plain data and pure functions.
 *
 * A `QueueState` is a plain, JSON-safe object; every function returns a new state and never changes the
 * one it was given, so a Pinia store can hold it in a `shallowRef` and persist it as is:
 *
 *   queue.value = playNext(queue.value, song)
 *   const moved = next(queue.value, { auto: true }); if (moved) queue.value = moved; else stop()
 *
 * `entries` is the play order, the order the queue panel shows. While shuffle is on it is a shuffled
 * permutation and `originalOrder` remembers the user's order, which comes back when shuffle goes off.
 * Each entry has its own `key`, so the same song can be queued twice.
 */

import { REPEAT_MODES } from './queue-state'
import type { QueueEntry, QueueItem, QueueState, RepeatMode } from './queue-state'

export { REPEAT_MODES, createQueue } from './queue-state'
export type { QueueEntry, QueueItem, QueueState, RepeatMode } from './queue-state'
export { queueFromJSON, queueToJSON } from './queue-snapshot'
export type { QueueSnapshot } from './queue-snapshot'

/** Source of randomness in [0, 1); inject a seeded one in tests. Defaults to `Math.random`. */
export type RandomOptions = { random?: () => number }

/** Seconds into a song after which "previous" restarts it instead of going back. */
export const RESTART_THRESHOLD_MS = 3000

export function currentEntry<T extends QueueItem>(state: QueueState<T>): QueueEntry<T> | undefined {
  return state.current >= 0 ? state.entries[state.current] : undefined
}

export function currentItem<T extends QueueItem>(state: QueueState<T>): T | undefined {
  return currentEntry(state)?.item
}

/** The entries after the current one, in play order. */
export function upNext<T extends QueueItem>(state: QueueState<T>): QueueEntry<T>[] {
  return state.entries.slice(state.current + 1)
}

export function indexOfKey<T extends QueueItem>(state: QueueState<T>, key: string): number {
  return state.entries.findIndex((entry) => entry.key === key)
}

/**
 * Whether "previous" should restart the current song (more than 3 s in) rather than go back a song.
 */
export function shouldRestartOnPrevious(positionMs: number, thresholdMs = RESTART_THRESHOLD_MS): boolean {
  return positionMs > thresholdMs
}

function toArray<T>(items: T | readonly T[]): readonly T[] {
  return Array.isArray(items) ? (items as readonly T[]) : [items as T]
}

function makeEntries<T extends QueueItem>(
  state: QueueState<T>,
  items: readonly T[],
): { entries: QueueEntry<T>[]; nextKey: number } {
  let nextKey = state.nextKey
  const entries = items.map((item) => ({ key: `e${nextKey++}`, item }))
  return { entries, nextKey }
}

/** Fisher–Yates shuffle of a copy. */
function shuffled<U>(values: readonly U[], random: () => number): U[] {
  const result = values.slice()
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.min(i, Math.floor(random() * (i + 1)))
    const swap = result[i]
    result[i] = result[j]
    result[j] = swap
  }
  return result
}

/**
 * Replaces the queue ("Play all"). Without shuffle, `startIndex` (default 0) becomes current. With
 * shuffle, the start entry plays first and the rest follow in a random order; without a `startIndex` the
 * first song is random too. Repeat and shuffle modes are kept.
 */
export function setQueue<T extends QueueItem>(
  state: QueueState<T>,
  items: readonly T[],
  options: RandomOptions & { startIndex?: number } = {},
): QueueState<T> {
  const { entries, nextKey } = makeEntries(state, items)
  if (entries.length === 0) return { ...clearQueue(state), nextKey }
  const random = options.random ?? Math.random
  const given = options.startIndex
  const valid = given !== undefined && Number.isInteger(given) && given >= 0 && given < entries.length
  if (!state.shuffle) {
    return { ...state, entries, current: valid ? given : 0, originalOrder: null, nextKey }
  }
  const start = valid ? given : Math.min(entries.length - 1, Math.floor(random() * entries.length))
  const rest = shuffled(
    entries.filter((_, index) => index !== start),
    random,
  )
  return {
    ...state,
    entries: [entries[start], ...rest],
    current: 0,
    originalOrder: entries.map((entry) => entry.key),
    nextKey,
  }
}

function insertAfterCurrent<T extends QueueItem>(
  state: QueueState<T>,
  items: readonly T[],
  jump: boolean,
): QueueState<T> {
  const { entries: added, nextKey } = makeEntries(state, items)
  if (added.length === 0) return state
  const addedKeys = added.map((entry) => entry.key)
  if (state.entries.length === 0) {
    return {
      ...state,
      entries: added,
      current: 0,
      originalOrder: state.shuffle ? addedKeys : null,
      nextKey,
    }
  }
  const at = state.current + 1
  const entries = [...state.entries.slice(0, at), ...added, ...state.entries.slice(at)]
  let originalOrder = state.originalOrder
  if (originalOrder) {
    const currentKey = state.entries[state.current].key
    const after = originalOrder.indexOf(currentKey) + 1
    originalOrder = [...originalOrder.slice(0, after), ...addedKeys, ...originalOrder.slice(after)]
  }
  return { ...state, entries, current: jump ? at : state.current, originalOrder, nextKey }
}

/** Inserts songs right after the current one and makes the first of them current ("Play now"). */
export function playNow<T extends QueueItem>(state: QueueState<T>, items: T | readonly T[]): QueueState<T> {
  return insertAfterCurrent(state, toArray(items), true)
}

/** Inserts songs right after the current one (the latest "Play next" plays first). */
export function playNext<T extends QueueItem>(state: QueueState<T>, items: T | readonly T[]): QueueState<T> {
  return insertAfterCurrent(state, toArray(items), false)
}

/** Appends songs to the end of the queue; on an empty queue the first becomes current. */
export function addToQueue<T extends QueueItem>(
  state: QueueState<T>,
  items: T | readonly T[],
): QueueState<T> {
  const { entries: added, nextKey } = makeEntries(state, toArray(items))
  if (added.length === 0) return state
  return {
    ...state,
    entries: [...state.entries, ...added],
    current: state.entries.length === 0 ? 0 : state.current,
    originalOrder: state.originalOrder ? [...state.originalOrder, ...added.map((entry) => entry.key)] : null,
    nextKey,
  }
}

/**
 * Removes entries by key. The current song stays current when it survives; when it is removed, the entry
 * that followed it becomes current (the new last entry if it was last; -1 if the queue is now empty).
 */
export function removeFromQueue<T extends QueueItem>(
  state: QueueState<T>,
  keys: string | readonly string[],
): QueueState<T> {
  const doomed = new Set(toArray(keys))
  const entries: QueueEntry<T>[] = []
  let removedBefore = 0
  state.entries.forEach((entry, index) => {
    if (!doomed.has(entry.key)) entries.push(entry)
    else if (index < state.current) removedBefore++
  })
  if (entries.length === state.entries.length) return state
  let current = state.current - removedBefore
  if (current >= entries.length) current = entries.length - 1
  const originalOrder = state.originalOrder ? state.originalOrder.filter((key) => !doomed.has(key)) : null
  return { ...state, entries, current, originalOrder }
}

/**
 * Moves the entry at `from` so that it ends up at index `to` (drag-and-drop semantics); the current song
 * stays current. Out-of-range indices leave the queue unchanged. While shuffle is on this reorders the
 * play order only; the order restored when shuffle goes off is unchanged.
 */
export function moveInQueue<T extends QueueItem>(
  state: QueueState<T>,
  from: number,
  to: number,
): QueueState<T> {
  const length = state.entries.length
  const inRange = (index: number): boolean => Number.isInteger(index) && index >= 0 && index < length
  if (!inRange(from) || !inRange(to) || from === to) return state
  const entries = state.entries.slice()
  const [moved] = entries.splice(from, 1)
  entries.splice(to, 0, moved)
  let current = state.current
  if (current === from) current = to
  else if (from < current && current <= to) current--
  else if (to <= current && current < from) current++
  return { ...state, entries, current }
}

/** Empties the queue; repeat and shuffle modes are kept. */
export function clearQueue<T extends QueueItem>(state: QueueState<T>): QueueState<T> {
  return { ...state, entries: [], current: -1, originalOrder: state.shuffle ? [] : null }
}

/** Makes the entry with this key current; an unknown key leaves the queue unchanged. */
export function jumpTo<T extends QueueItem>(state: QueueState<T>, key: string): QueueState<T> {
  const index = indexOfKey(state, key)
  return index === -1 || index === state.current ? state : { ...state, current: index }
}

/**
 * The state after moving to the next song, or `null` when playback should stop (empty queue, or the end
 * with repeat off). `auto: true` means the song ended by itself: with repeat one the same state comes back
 * (play the current song again). A manual skip with repeat one moves on as repeat all does. With shuffle
 * and repeat, finishing the cycle starts a new permutation that does not begin with the song just played.
 */
export function next<T extends QueueItem>(
  state: QueueState<T>,
  options: RandomOptions & { auto?: boolean } = {},
): QueueState<T> | null {
  const length = state.entries.length
  if (length === 0) return null
  if (options.auto && state.repeat === 'one') return state
  if (state.current < length - 1) return { ...state, current: state.current + 1 }
  if (state.repeat === 'off') return null
  if (!state.shuffle || length === 1) return { ...state, current: 0 }
  const random = options.random ?? Math.random
  const lastKey = state.entries[state.current].key
  const entries = shuffled(state.entries, random)
  if (entries[0].key === lastKey) {
    const swapWith = 1 + Math.min(length - 2, Math.floor(random() * (length - 1)))
    entries[0] = entries[swapWith]
    entries[swapWith] = state.entries[state.current]
  }
  return { ...state, entries, current: 0 }
}

/**
 * The entry `next` would move to, without moving: for fetching the next song's details ahead of time.
 * `undefined` when playback would stop, and at the end of a shuffled cycle (the new order is not drawn yet).
 */
export function peekNext<T extends QueueItem>(
  state: QueueState<T>,
  options: { auto?: boolean } = {},
): QueueEntry<T> | undefined {
  const length = state.entries.length
  if (length === 0) return undefined
  if (options.auto && state.repeat === 'one') return state.entries[state.current]
  if (state.current < length - 1) return state.entries[state.current + 1]
  if (state.repeat === 'off' || (state.shuffle && length > 1)) return undefined
  return state.entries[0]
}

/**
 * The state after going back a song, or `null` at the start with repeat off (then restart the current
 * song). With repeat all or one, the first song goes back to the last. Check `shouldRestartOnPrevious`
 * first.
 */
export function previous<T extends QueueItem>(state: QueueState<T>): QueueState<T> | null {
  const length = state.entries.length
  if (length === 0) return null
  if (state.current > 0) return { ...state, current: state.current - 1 }
  if (state.repeat === 'off') return null
  return { ...state, current: length - 1 }
}

export function setRepeat<T extends QueueItem>(state: QueueState<T>, repeat: RepeatMode): QueueState<T> {
  return state.repeat === repeat || !REPEAT_MODES.includes(repeat) ? state : { ...state, repeat }
}

/** off → all → one → off, the order of a repeat button. */
export function cycleRepeat<T extends QueueItem>(state: QueueState<T>): QueueState<T> {
  const index = REPEAT_MODES.indexOf(state.repeat)
  return { ...state, repeat: REPEAT_MODES[(index + 1) % REPEAT_MODES.length] }
}

/**
 * Turns shuffle on or off. On: the current song stays current and comes first, every other song follows
 * in a random order, so each plays once before any repeats. Off: the user's order comes back, including
 * songs added meanwhile, and the current song stays current.
 */
export function setShuffle<T extends QueueItem>(
  state: QueueState<T>,
  shuffle: boolean,
  options: RandomOptions = {},
): QueueState<T> {
  if (state.shuffle === shuffle) return state
  if (shuffle) {
    const originalOrder = state.entries.map((entry) => entry.key)
    if (state.entries.length === 0) return { ...state, shuffle, originalOrder }
    const random = options.random ?? Math.random
    const current = state.entries[state.current]
    const rest = shuffled(
      state.entries.filter((_, index) => index !== state.current),
      random,
    )
    return { ...state, shuffle, entries: [current, ...rest], current: 0, originalOrder }
  }
  const byKey = new Map(state.entries.map((entry) => [entry.key, entry]))
  const entries: QueueEntry<T>[] = []
  for (const key of state.originalOrder ?? []) {
    const entry = byKey.get(key)
    if (entry) {
      entries.push(entry)
      byKey.delete(key)
    }
  }
  entries.push(...byKey.values())
  const currentKey = currentEntry(state)?.key
  const current = currentKey === undefined ? -1 : entries.findIndex((entry) => entry.key === currentKey)
  return { ...state, shuffle, entries, current, originalOrder: null }
}
