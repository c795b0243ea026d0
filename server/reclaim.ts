import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void

let collect: Collect | null | undefined

/**
 * Gives back to the system what a burst of work (an import of the music folders) left behind: one
 * collection of everything V8 can free, compacting the old generation and returning its emptied pages.
 * V8 on its own keeps the old generation it grew during the import (40–50 MB of it garbage with 20,000
 * files) for as long as the process stays idle. Costs a blocking collection of some tens of ms, so it is
 * for the end of an import, not for each small change. `gc` is reached through a context of its own, so
 * the process's global object does not get one. False when this V8 offers no such collection.
 */
export function reclaimMemory(): boolean {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc')
      const gc: unknown = runInNewContext('gc')
      collect = typeof gc === 'function' ? (gc as Collect) : null
    } catch {
      collect = null
    }
  }
  if (!collect) return false
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' })
  return true
}
