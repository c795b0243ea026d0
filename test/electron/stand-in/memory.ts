import { readFileSync } from 'node:fs'
import { getHeapStatistics, setFlagsFromString, writeHeapSnapshot } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** What the stand-in's process holds now, in MB: its resident memory by kind and V8's heap. */
export interface ProcessMemory {
  /** VmRSS: everything resident. */
  rss: number
  /** RssAnon: the process's own pages (heaps, stacks). */
  anon: number
  /** RssFile: files mapped and resident (the node binary, shared libraries). */
  file: number
  /** V8's heap in use (`process.memoryUsage().heapUsed`) and as reserved (`heapTotal`). */
  heapUsed: number
  heapTotal: number
  /** V8's heap pages resident (`total_physical_size`), and what V8 itself allocated with malloc. */
  heapPhysical: number
  malloced: number
  /** Memory of C++ objects bound to JavaScript, of which `arrayBuffers` is buffers'. */
  external: number
  arrayBuffers: number
  /** Native contexts (realms) alive in V8, and detached ones (leaks show here). */
  contexts: number
  detachedContexts: number
}

const MB = 1024 * 1024

/** V8's full collection, without `--expose-gc` on the command line (which would differ from Electron's). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc')
  ;(runInNewContext('gc') as () => void)()
}

/**
 * Read in the process itself (Linux `/proc/self/status` for the resident parts), after a full garbage
 * collection when `collect`, so two reads compare what is alive rather than when V8 last collected.
 */
export function processMemory(collect = false): ProcessMemory {
  if (collect) collectGarbage()
  const status = readFileSync('/proc/self/status', 'utf8')
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024
  const usage = process.memoryUsage()
  const heap = getHeapStatistics()
  return {
    rss: kb('VmRSS'),
    anon: kb('RssAnon'),
    file: kb('RssFile'),
    heapUsed: usage.heapUsed / MB,
    heapTotal: usage.heapTotal / MB,
    heapPhysical: heap.total_physical_size / MB,
    malloced: heap.malloced_memory / MB,
    external: usage.external / MB,
    arrayBuffers: usage.arrayBuffers / MB,
    contexts: heap.number_of_native_contexts,
    detachedContexts: heap.number_of_detached_contexts,
  }
}

/** A V8 heap snapshot of the process, written to `file` (garbage is collected first). */
export function heapSnapshot(file: string): string {
  return writeHeapSnapshot(file)
}
