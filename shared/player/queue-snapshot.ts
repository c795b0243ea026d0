import { REPEAT_MODES, createQueue } from './queue-state'
import type { QueueEntry, QueueItem, QueueState, RepeatMode } from './queue-state'

/** The queue saved and restored: a JSON-safe copy, and a repair of saved data of unknown shape. */

const SNAPSHOT_VERSION = 1

/** What `queueToJSON` writes: the state plus a format version. */
export type QueueSnapshot<T extends QueueItem> = QueueState<T> & { version: number }

/** A copy of the state, ready for `JSON.stringify` and for `queueFromJSON`. */
export function queueToJSON<T extends QueueItem>(state: QueueState<T>): QueueSnapshot<T> {
  return {
    version: SNAPSHOT_VERSION,
    entries: state.entries.map((entry) => ({ key: entry.key, item: entry.item })),
    current: state.current,
    repeat: state.repeat,
    shuffle: state.shuffle,
    originalOrder: state.originalOrder ? state.originalOrder.slice() : null,
    nextKey: state.nextKey,
  }
}

function hasId(value: unknown): value is QueueItem {
  if (typeof value !== 'object' || value === null) return false
  const id = (value as { id?: unknown }).id
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))
}

/**
 * Restores a queue from saved data of unknown shape. Never throws: invalid items are dropped (checked with
 * `isItem`, by default "has a string or number id"), missing or repeated keys get new ones, and an
 * out-of-range current index, unknown repeat mode or broken shuffle order are repaired.
 */
export function queueFromJSON<T extends QueueItem>(
  data: unknown,
  isItem: (value: unknown) => value is T = hasId as (value: unknown) => value is T,
): QueueState<T> {
  if (typeof data !== 'object' || data === null) return createQueue<T>()
  const raw = data as Record<string, unknown>
  const repeat = REPEAT_MODES.includes(raw.repeat as RepeatMode) ? (raw.repeat as RepeatMode) : 'off'
  const shuffle = raw.shuffle === true
  const rawEntries = Array.isArray(raw.entries) ? (raw.entries as unknown[]) : []
  const rawCurrent = typeof raw.current === 'number' ? raw.current : 0

  let nextKey =
    typeof raw.nextKey === 'number' && Number.isInteger(raw.nextKey) ? Math.max(1, raw.nextKey) : 1
  for (const value of rawEntries) {
    const key = (value as { key?: unknown } | null)?.key
    const match = typeof key === 'string' ? /^e(\d+)$/.exec(key) : null
    if (match) nextKey = Math.max(nextKey, Number(match[1]) + 1)
  }

  const seen = new Set<string>()
  const entries: QueueEntry<T>[] = []
  let current = -1
  rawEntries.forEach((value, index) => {
    if (typeof value !== 'object' || value === null) return
    const { key, item } = value as { key?: unknown; item?: unknown }
    if (!isItem(item)) return
    let entryKey = typeof key === 'string' && key !== '' && !seen.has(key) ? key : ''
    if (!entryKey) entryKey = `e${nextKey++}`
    seen.add(entryKey)
    if (index <= rawCurrent) current = entries.length
    entries.push({ key: entryKey, item })
  })
  if (entries.length === 0) current = -1
  else if (current < 0) current = 0

  let originalOrder: string[] | null = null
  if (shuffle) {
    const saved = Array.isArray(raw.originalOrder) ? (raw.originalOrder as unknown[]) : []
    const known = new Set(entries.map((entry) => entry.key))
    originalOrder = []
    for (const key of saved) {
      if (typeof key === 'string' && known.delete(key)) originalOrder.push(key)
    }
    originalOrder.push(...known)
  }
  return { entries, current, repeat, shuffle, originalOrder, nextKey }
}
