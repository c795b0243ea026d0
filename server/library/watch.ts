import { existsSync, watch, type FSWatcher } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { encodePath, isInside, joinRaw, type RawPath } from './paths'

export interface FolderWatch {
  close(): void
  /** Folders watched one by one (Linux): how many, and whether the cap left some to periodic rescans. */
  readonly watchedFolders: number
  readonly overCap: boolean
}

/**
 * What a watch reports: the paths that changed (files and folders, absolute, raw bytes), or that the
 * folders must be imported again in full, and why (a chosen folder went or came back, too many changes at
 * once, an event without a name, folders past the cap).
 */
export type WatchBatch = { paths: RawPath[] } | { full: string }

type Tree = Map<string, { dir: RawPath; w: FSWatcher }>

export interface WatchOptions {
  /** Quiet time after the last change before a batch is reported. */
  debounceMs?: number
  /** A batch is reported at the latest this long after its first change, however busy the folders are. */
  maxWaitMs?: number
  /** How often a chosen folder that is not there (or whose watch ended) is looked for again. */
  recheckMs?: number
  /** More changed paths than this in one batch: a full import instead. */
  maxPaths?: number
  /** Linux: the most folders watched (one inotify watch each); past it, a full import every `rescanMs`. */
  maxFolders?: number
  rescanMs?: number
  /** Whether `fs.watch` is recursive by itself (FSEvents on macOS, ReadDirectoryChangesW on Windows). */
  recursive?: boolean
}

/**
 * Watches the chosen folders while the data source runs and reports what changed in batches (`onChange`),
 * each after `debounceMs` of quiet. On macOS and Windows `fs.watch` with `recursive` watches a whole tree.
 * On Linux each folder gets a watch of its own (inotify reports a folder's entries, not deeper ones): the
 * tree is walked once at the start, a folder that appears is watched as its event arrives and is reported
 * again once watched (so a file written into it before that is not missed); past `maxFolders` (or when
 * the system refuses more watches) the folders beyond are left to a full import every `rescanMs`. A
 * chosen folder that goes away (its watch errors or ends) is looked for every `recheckMs`; its going and
 * its return are each reported as a full import (which marks its songs unavailable, then back).
 */
export function watchFolders(
  folders: string[],
  onChange: (batch: WatchBatch) => void,
  opts: WatchOptions = {},
): FolderWatch {
  const debounceMs = opts.debounceMs ?? 300
  const maxWaitMs = opts.maxWaitMs ?? 2000
  const recheckMs = opts.recheckMs ?? 3000
  const maxPaths = opts.maxPaths ?? 5000
  const maxFolders = opts.maxFolders ?? 8192
  const rescanMs = opts.rescanMs ?? 60_000
  const recursive = opts.recursive ?? process.platform !== 'linux'
  const roots = folders.map((f) => Buffer.from(resolve(f)))
  /** Per chosen folder: its watches, by folder (Linux: one per folder; otherwise the folder's one). */
  const trees = new Map<string, Tree>()
  const pending = new Map<string, RawPath>()
  let full: string | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let firstAt = 0
  let closed = false
  let overCap = false
  let rescan: ReturnType<typeof setInterval> | undefined

  const flush = () => {
    timer = undefined
    if (closed) return
    const reason = full
    const paths = [...pending.values()]
    full = undefined
    pending.clear()
    if (reason !== undefined) onChange({ full: reason })
    else if (paths.length > 0) onChange({ paths })
  }
  const schedule = () => {
    if (closed) return
    const now = Date.now()
    if (!timer) firstAt = now
    else clearTimeout(timer)
    timer = setTimeout(flush, Math.max(0, Math.min(debounceMs, firstAt + maxWaitMs - now)))
  }
  const changed = (path: RawPath) => {
    if (full === undefined) {
      pending.set(encodePath(path), path)
      if (pending.size > maxPaths) full = `more than ${maxPaths} changes at once`
    }
    schedule()
  }
  const fullImport = (reason: string) => {
    full ??= reason
    schedule()
  }
  const goOverCap = () => {
    if (overCap) return
    overCap = true
    rescan = setInterval(() => fullImport('folders past the watch cap'), rescanMs)
    rescan.unref?.()
  }

  const unwatchRoot = (key: string) => {
    for (const watched of trees.get(key)?.values() ?? []) watched.w.close()
    trees.delete(key)
  }
  /** The chosen folder is gone (or its watch ended): watched again by the recheck once it is back. */
  const lost = (root: RawPath) => {
    const key = encodePath(root)
    if (!trees.has(key) || existsSync(root)) return
    unwatchRoot(key)
    fullImport('a chosen folder went away')
  }

  /** Linux: one watch for `dir`; false past the cap or when the system refuses it. */
  const watchOne = (root: RawPath, tree: Tree, dir: RawPath): boolean => {
    const key = encodePath(dir)
    if (tree.has(key)) return true
    let count = 0
    for (const t of trees.values()) count += t.size
    if (count >= maxFolders) return false
    try {
      const w = watch(dir, { persistent: false, encoding: 'buffer' }, (_event, name) => {
        if (name === null) return fullImport('a change without a name')
        if (name[0] === 0x2e /* . hidden */) return
        const path = joinRaw(dir, name)
        changed(path)
        void stat(path).then(
          (st) => {
            if (st.isDirectory() && !tree.has(encodePath(path)) && trees.get(encodePath(root)) === tree) {
              void watchTree(root, tree, path).then(() => changed(path))
            }
          },
          () => {
            // Gone: so are the watches of the folders below it.
            for (const [k, watched] of tree) {
              if (isInside(watched.dir, path)) {
                watched.w.close()
                tree.delete(k)
              }
            }
            lost(root)
          },
        )
      })
      w.on('error', () => {
        w.close()
        tree.delete(key)
        lost(root)
      })
      tree.set(key, { dir, w })
      return true
    } catch {
      return false
    }
  }
  /** Linux: `dir` and every folder below it (hidden ones and links left out, as the walk does). */
  const watchTree = async (root: RawPath, tree: Tree, dir: RawPath): Promise<void> => {
    const queue = [dir]
    for (let n = 0; queue.length > 0; n++) {
      if (closed || trees.get(encodePath(root)) !== tree) return
      const next = queue.shift()!
      if (!watchOne(root, tree, next)) return goOverCap()
      const entries = await readdir(next, { encoding: 'buffer', withFileTypes: true }).catch(() => [])
      for (const e of entries) {
        if (e.isDirectory() && e.name[0] !== 0x2e) queue.push(joinRaw(next, e.name))
      }
      if (n % 64 === 63) await new Promise((r) => setImmediate(r))
    }
  }

  const start = (root: RawPath): boolean => {
    const key = encodePath(root)
    if (trees.has(key) || !existsSync(root)) return false
    const tree: Tree = new Map()
    trees.set(key, tree)
    if (!recursive) {
      void watchTree(root, tree, root)
      return true
    }
    try {
      const w = watch(root, { recursive: true, persistent: false, encoding: 'buffer' }, (_event, name) => {
        if (name === null) return fullImport('a change without a name')
        const path = joinRaw(root, name)
        if (isInside(path, root) && !path.equals(root)) changed(path)
        if (!existsSync(root)) lost(root)
      })
      w.on('error', () => lost(root))
      tree.set(key, { dir: root, w })
      return true
    } catch {
      trees.delete(key)
      return false
    }
  }

  for (const root of roots) start(root)
  const recheck = setInterval(() => {
    for (const root of roots) {
      if (trees.has(encodePath(root))) lost(root)
      else if (start(root)) fullImport('a chosen folder came back')
    }
  }, recheckMs)
  recheck.unref?.()

  return {
    close() {
      closed = true
      if (timer) clearTimeout(timer)
      clearInterval(recheck)
      if (rescan) clearInterval(rescan)
      for (const key of [...trees.keys()]) unwatchRoot(key)
    },
    get watchedFolders() {
      let count = 0
      for (const t of trees.values()) count += t.size
      return count
    },
    get overCap() {
      return overCap
    },
  }
}
