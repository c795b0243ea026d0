import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { DB } from '../db/sqlite'
import type { LibraryReport } from '@shared/ipc/music-folders'
import { applyChanges } from './changes'
import { emptiedRoots } from './emptied'
import { encodePath, type RawPath } from './paths'
import { folderStatus } from './status'
import { watchFolders, type WatchOptions } from './watch'

/** What the watch has done since the data source started (the first import not counted). */
export interface LibraryScans {
  /** Full imports (walk and stat of every file) a change led to. */
  full: number
  /** Batches of changed paths applied by themselves (changes.ts). */
  changes: number
  /** Files and folders those batches looked at. */
  statted: number
}

export interface LiveLibraryDeps {
  db: DB
  folders: string[]
  /** The full import with its reporting (run.ts). */
  importNow: () => Promise<void>
  report?: (event: LibraryReport) => void
  warn: (message: string) => void
  log: (message: string) => void
  watch?: WatchOptions
}

export interface LiveLibrary {
  readonly scans: LibraryScans
  /** Stops watching and waits for what runs. */
  close(): Promise<void>
}

/**
 * Keeps the library in step with the chosen folders while the data source runs: the folder watch's
 * batches (watch.ts) are applied path by path (changes.ts), one at a time; a batch that asks for it (a
 * folder gone or back, too many changes, a path that is a chosen folder) runs the full import instead.
 * Changes seen while one runs are applied after it. Each batch ends with the folders' status reported
 * as a full import's does (their song counts in Settings).
 */
export function watchLibrary(deps: LiveLibraryDeps): LiveLibrary {
  const scans: LibraryScans = { full: 0, changes: 0, statted: 0 }
  const roots = deps.folders.map((f) => Buffer.from(resolve(f)))
  const queued = new Map<string, RawPath>()
  let wantFull = false
  let running: Promise<void> | undefined
  let closing = false

  const fullImport = async () => {
    scans.full++
    await deps.importNow()
  }
  const apply = async (paths: RawPath[]) => {
    // A chosen folder named, gone (deleted file by file, as `rm -r` does) or left empty (a drive
    // unmounted, its mount point kept): the full import marks it missing.
    const gone = (r: RawPath) => !existsSync(r) || emptiedRoots(deps.db, [r]).length > 0
    if (paths.some((p) => roots.some((r) => r.equals(p))) || roots.some(gone)) {
      return fullImport()
    }
    const report = await applyChanges(deps.db, roots, paths)
    scans.changes++
    scans.statted += report.statted
    for (const f of report.failed) deps.warn(`library: skipped ${f.path}: ${f.error}`)
    deps.log(
      `library: ${paths.length} changed paths: ${report.added} added, ${report.updated} updated, ` +
        `${report.removed} removed, ${report.unchanged} unchanged`,
    )
    deps.report?.({
      type: 'library-done',
      folders: folderStatus(deps.db, deps.folders, [], Date.now()),
      message: null,
    })
  }
  const run = () => {
    if (running || closing || (!wantFull && queued.size === 0)) return
    const full = wantFull
    const paths = [...queued.values()]
    wantFull = false
    queued.clear()
    running = (full ? fullImport() : apply(paths))
      .catch((error: unknown) => deps.warn(`library: a change could not be applied: ${String(error)}`))
      .finally(() => {
        running = undefined
        run()
      })
  }
  const watch = watchFolders(
    deps.folders,
    (batch) => {
      if ('full' in batch) {
        deps.log(`library: importing again: ${batch.full}`)
        wantFull = true
        queued.clear()
      } else if (!wantFull) for (const p of batch.paths) queued.set(encodePath(p), p)
      run()
    },
    deps.watch,
  )
  return {
    scans,
    async close() {
      closing = true
      watch.close()
      await running
    },
  }
}
