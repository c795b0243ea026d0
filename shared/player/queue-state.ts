/** The play queue's state and its empty value (the functions over it are in `./queue`). */

export type RepeatMode = 'off' | 'all' | 'one'
export const REPEAT_MODES: readonly RepeatMode[] = ['off', 'all', 'one']

export type QueueItem = { id: string | number }
export type QueueEntry<T extends QueueItem> = { key: string; item: T }

export type QueueState<T extends QueueItem> = {
  /** Entries in play order (shuffled while shuffle is on). */
  entries: QueueEntry<T>[]
  /** Index of the current entry in `entries`; -1 exactly when the queue is empty. */
  current: number
  repeat: RepeatMode
  shuffle: boolean
  /** Entry keys in the user's order while shuffle is on; `null` while it is off. */
  originalOrder: string[] | null
  /** Number used for the next entry key. */
  nextKey: number
}

export function createQueue<T extends QueueItem>(
  modes: { repeat?: RepeatMode; shuffle?: boolean } = {},
): QueueState<T> {
  const shuffle = modes.shuffle === true
  return {
    entries: [],
    current: -1,
    repeat: modes.repeat ?? 'off',
    shuffle,
    originalOrder: shuffle ? [] : null,
    nextKey: 1,
  }
}
