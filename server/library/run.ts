import type { DB } from '../db/sqlite'
import type { LibraryReport } from '@shared/ipc/music-folders'
import { importLibrary, type ImportReport } from './import'
import { folderStatus } from './status'

export interface LibraryRunDeps {
  db: DB
  folders: string[]
  signal?: AbortSignal
  /** Progress and the result, for the app (utility-entry.ts posts them to main). */
  report?: (event: LibraryReport) => void
  warn: (message: string) => void
  log: (message: string) => void
  /** Gives back the memory the import used, before it is reported done (reclaim.ts); none in tests. */
  reclaim?: () => void
}

/** Progress is reported at most this often. */
const PROGRESS_EVERY_MS = 250

/**
 * One import of the chosen folders with its reporting: progress while it runs (throttled), then each
 * folder's status, or why the import stopped (the file cap, cancelled, an error) — never a throw. What the
 * import used is given back (`reclaim`) before it is reported done.
 */
export async function runLibraryImport(deps: LibraryRunDeps): Promise<ImportReport | undefined> {
  let last = 0
  let result: ImportReport | undefined
  let message: string | null = null
  try {
    result = await importLibrary(deps.db, deps.folders, undefined, {
      signal: deps.signal,
      onProgress: ({ found, read }) => {
        const now = Date.now()
        if (now - last < PROGRESS_EVERY_MS) return
        last = now
        deps.report?.({ type: 'library-progress', found, read })
      },
    })
    for (const f of result.failed) deps.warn(`library: skipped ${f.path}: ${f.error}`)
    if (result.capped) {
      deps.warn(`library: ${result.capped}`)
      message = result.capped
    }
    deps.log(
      `library: ${result.added} added, ${result.updated} updated, ${result.removed} removed, ` +
        `${result.unchanged} unchanged, ${result.unavailable} unavailable`,
    )
  } catch (error) {
    if (deps.signal?.aborted)
      message = 'The import was cancelled: what was read is kept; the rest is read next time.'
    else {
      message = `The import stopped: ${(error as Error)?.message ?? String(error)}`
      deps.warn(`library: ${message}`)
    }
  }
  deps.reclaim?.()
  const missing = result?.missing ?? []
  deps.report?.({
    type: 'library-done',
    folders: folderStatus(deps.db, deps.folders, missing, Date.now()),
    message,
  })
  return result
}
