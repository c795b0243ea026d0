import type { Logger } from '../log'
import { debouncedWrite } from '../debounced'
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
  let saving: Promise<void> = Promise.resolve()
  let closed = false

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
  const later = debouncedWrite(write, deps.delayMs, deps.timers)

  return {
    /** Saves the index soon. */
    schedule() {
      if (!closed) later.schedule()
    },
    /** Saves it now. */
    write,
    /** Saves it now in place of a scheduled save. */
    flush: later.flush,
    /** After `close()`: nothing is written any more. */
    closed: () => closed,
    /** Saves it one last time and stops saving it. */
    async close() {
      later.cancel()
      if (!closed) await write()
      closed = true
      await saving
    },
  }
}
