import { existsSync, watch, type FSWatcher } from 'node:fs'

export interface FolderWatch {
  close(): void
}

export interface WatchOptions {
  /** Quiet time after the last change before `onChange` runs (a copy of many files is one import). */
  debounceMs?: number
  /** How often a chosen folder that is not there (or whose watch ended) is looked for again. */
  recheckMs?: number
}

/**
 * Watches the chosen folders while the data source runs: `fs.watch` with `recursive` (FSEvents on macOS,
 * ReadDirectoryChangesW on Windows, and on Linux Node's own recursive inotify watch of every subfolder).
 * Any change, after `debounceMs` of quiet, calls `onChange` once (the caller imports again, reading only
 * what changed). A folder that goes away (its watch errors or ends) is looked for every `recheckMs`;
 * when it is back it is watched again and `onChange` runs.
 */
export function watchFolders(folders: string[], onChange: () => void, opts: WatchOptions = {}): FolderWatch {
  const debounceMs = opts.debounceMs ?? 500
  const recheckMs = opts.recheckMs ?? 3000
  const watchers = new Map<string, FSWatcher>()
  let timer: ReturnType<typeof setTimeout> | undefined
  let closed = false

  const changed = () => {
    if (closed) return
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = undefined
      if (!closed) onChange()
    }, debounceMs)
  }
  const unwatch = (folder: string) => {
    watchers.get(folder)?.close()
    watchers.delete(folder)
  }
  const start = (folder: string): boolean => {
    if (watchers.has(folder) || !existsSync(folder)) return false
    try {
      const w = watch(folder, { recursive: true, persistent: false }, (_event, name) => {
        changed()
        // The folder itself renamed or deleted: its watch no longer sees anything.
        if (name === null || !existsSync(folder)) unwatch(folder)
      })
      w.on('error', () => {
        unwatch(folder)
        changed()
      })
      watchers.set(folder, w)
      return true
    } catch {
      return false
    }
  }
  for (const folder of folders) start(folder)
  const recheck = setInterval(() => {
    for (const folder of folders) {
      if (watchers.has(folder) && !existsSync(folder)) {
        unwatch(folder)
        changed()
      } else if (start(folder)) changed()
    }
  }, recheckMs)
  recheck.unref?.()

  return {
    close() {
      closed = true
      if (timer) clearTimeout(timer)
      clearInterval(recheck)
      for (const folder of [...watchers.keys()]) unwatch(folder)
    },
  }
}
