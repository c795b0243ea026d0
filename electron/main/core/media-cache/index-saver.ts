import type { Logger } from '../log'
import type { Timers } from '../ports'
import type { CacheEntry } from './cache-index'
import { saveIndex } from './cache-index'
import type { CacheFs } from './fs-port'

/**
 * The cache index on disk: a change is saved `delayMs` later (many changes, one write); writes run one
 * after another. After `close()` nothing is scheduled any more (the folder may be about to go).
 */
export function createIndexSaver(deps: {
  fs: CacheFs
  dir: string
  entries: () => Iterable<CacheEntry>
  timers: Timers
  delayMs: number
  log: Logger
}) {
  let saveTimer: unknown
  let saving: Promise<void> = Promise.resolve()
  let closed = false

  const cancel = () => {
    if (saveTimer !== undefined) deps.timers.clearTimeout(saveTimer)
    saveTimer = undefined
  }
  const write = () => {
    saving = saving.then(() =>
      saveIndex(deps.fs, deps.dir, deps.entries()).catch((error: unknown) => {
        // Disk full or the folder unwritable: the files are still checked on every read, so a stale
        // index costs nothing but a rebuild.
        deps.log.warn('could not save the media cache index', { error: String(error) })
      }),
    )
    return saving
  }

  return {
    /** Saves the index soon. */
    schedule() {
      if (saveTimer !== undefined || closed) return
      saveTimer = deps.timers.setTimeout(() => {
        saveTimer = undefined
        void write()
      }, deps.delayMs)
    },
    /** Saves it now. */
    write,
    /** Saves it now in place of a scheduled save. */
    flush() {
      cancel()
      return write()
    },
    /** After `close()`: nothing is written any more. */
    closed: () => closed,
    /** Saves it one last time and stops saving it. */
    async close() {
      cancel()
      if (!closed) await write()
      closed = true
      await saving
    },
  }
}
