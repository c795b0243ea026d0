import { stat as statCallback, type Stats } from 'node:fs'
import { readdir, realpath, stat } from 'node:fs/promises'
import { extname } from 'node:path'
import { encodePath, isInside, joinRaw, type RawPath } from './paths'

/** The names of a folder's cover picture. */
export const COVER_NAME = /^(cover|folder|front|album)\.(jpe?g|png|webp)$/i

export const AUDIO_TYPES: Record<string, string> = {
  '.mp3': 'audio/mpeg',
  '.flac': 'audio/flac',
  '.wav': 'audio/wav',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.webm': 'audio/webm',
}

/** The most files one import takes; past it the import stops before changing anything. */
export const MAX_FILES = 200_000

export function audioType(path: RawPath): string | undefined {
  return AUDIO_TYPES[extname(path.toString('latin1')).toLowerCase()]
}

export interface FoundFile {
  path: RawPath
  /** The chosen folder it was found under. */
  root: RawPath
  /** What a scan compares: kept instead of the whole `Stats` (20,000 of those are megabytes). */
  stat: Pick<Stats, 'size' | 'mtimeMs' | 'dev' | 'ino'>
  /** A `.lrc` of the same name beside it. */
  lrc?: RawPath
}

export interface WalkResult {
  files: FoundFile[]
  /** Folders that could not be read (a chosen folder missing, a subfolder without permission). */
  unreadable: Array<{ path: RawPath; error: string }>
  /** True when more than `max` files were found: `files` is then incomplete. */
  overCap: boolean
  /** Folders with a `cover.*`/`folder.*` picture in them (as `encodePath` stores them, see albums.ts). */
  coverFolders: Set<string>
}

export interface WalkOptions {
  max?: number
  /** Called every so many files, to show progress and to give the event loop a turn. */
  onFound?: (count: number) => void | Promise<void>
  signal?: AbortSignal
  /** The chosen folders a symbolic link may lead into (default: `roots`), when walking a folder inside them. */
  within?: RawPath[]
}

/** Stats at once in one folder (a bounded number in flight): by name; a file gone since the listing is left out. */
async function statAll(names: Buffer[], dir: RawPath): Promise<Map<Buffer, Stats>> {
  const out = new Map<Buffer, Stats>()
  for (let i = 0; i < names.length; i += 64) {
    await Promise.all(
      names.slice(i, i + 64).map(
        (name) =>
          // The callback `stat`: half the CPU time of the promise one, for 20,000 files a scan.
          new Promise<void>((done) =>
            statCallback(joinRaw(dir, name), (error, st) => {
              if (!error) out.set(name, st)
              done()
            }),
          ),
      ),
    )
  }
  return out
}

/**
 * Every audio file under the chosen folders, each once: entries are read as bytes (names that are not
 * UTF-8 keep their exact bytes); hidden entries are skipped; a symbolic link is followed only when it
 * leads to a place inside one of the chosen folders; a folder or file reached twice (two chosen folders
 * that overlap, a link, a link loop) is taken once, by device and inode.
 */
export async function walkFolders(roots: RawPath[], opts: WalkOptions = {}): Promise<WalkResult> {
  const max = opts.max ?? MAX_FILES
  const result: WalkResult = { files: [], unreadable: [], overCap: false, coverFolders: new Set() }
  const realRoots: RawPath[] = []
  for (const root of opts.within ?? roots) {
    try {
      realRoots.push(await realpath(root, { encoding: 'buffer' }))
    } catch {
      // reported when the walk reaches it
    }
  }
  const seenDirs = new Set<string>()
  const seenFiles = new Set<string>()
  const inside = (real: RawPath) => realRoots.some((r) => isInside(real, r))

  const visit = async (dir: RawPath, root: RawPath): Promise<void> => {
    if (result.overCap) return
    opts.signal?.throwIfAborted()
    let entries
    try {
      const st = await stat(dir)
      const key = `${st.dev}:${st.ino}`
      if (seenDirs.has(key)) return
      seenDirs.add(key)
      entries = await readdir(dir, { encoding: 'buffer', withFileTypes: true })
    } catch (err) {
      result.unreadable.push({ path: dir, error: (err as NodeJS.ErrnoException).code ?? String(err) })
      return
    }
    entries.sort((a, b) => Buffer.compare(a.name, b.name))
    const lrcs = new Set<string>()
    for (const e of entries) {
      const name = e.name.toString('latin1')
      if (name.toLowerCase().endsWith('.lrc')) lrcs.add(name.slice(0, -4))
      if (COVER_NAME.test(name)) result.coverFolders.add(encodePath(dir))
    }
    // The folder's audio files are stat'ed together, not one round trip through the thread pool each.
    const stats = await statAll(
      entries.filter((e) => e.name[0] !== 0x2e && e.isFile() && audioType(e.name)).map((e) => e.name),
      dir,
    )
    for (const e of entries) {
      if (e.name[0] === 0x2e /* . */) continue
      const path = joinRaw(dir, e.name)
      let isDir = e.isDirectory()
      let isFile = e.isFile()
      let st: Stats | undefined = isFile ? stats.get(e.name) : undefined
      if (e.isSymbolicLink()) {
        try {
          if (!inside(await realpath(path, { encoding: 'buffer' }))) continue
          st = await stat(path)
        } catch {
          continue // a dangling link
        }
        isDir = st.isDirectory()
        isFile = st.isFile()
      }
      if (isDir) await visit(path, root)
      else if (isFile && audioType(path)) {
        try {
          st ??= await stat(path)
        } catch {
          continue // gone since the listing
        }
        const key = `${st.dev}:${st.ino}`
        if (seenFiles.has(key)) continue
        seenFiles.add(key)
        if (result.files.length >= max) {
          result.overCap = true
          return
        }
        const name = e.name.toString('latin1')
        const stem = name.slice(0, name.length - extname(name).length)
        result.files.push({
          path,
          root,
          stat: { size: st.size, mtimeMs: st.mtimeMs, dev: st.dev, ino: st.ino },
          lrc: lrcs.has(stem) ? joinRaw(dir, Buffer.from(stem + '.lrc', 'latin1')) : undefined,
        })
        if (result.files.length % 500 === 0) await opts.onFound?.(result.files.length)
      }
      if (result.overCap) return
    }
  }
  for (const root of roots) await visit(root, root)
  await opts.onFound?.(result.files.length)
  return result
}
