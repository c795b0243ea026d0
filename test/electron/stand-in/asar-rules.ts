import childProcess from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { createRequire, isBuiltin, registerHooks, syncBuiltinESMExports } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, extname, isAbsolute, join, resolve as resolvePath } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { isMainThread } from 'node:worker_threads'
import { AsarArchive, notFound, splitArchivePath } from './asar.ts'
import type { AsarEntry } from './asar.ts'

/**
 * Electron's asar rules, as its documentation ("ASAR Archives") states them, installed into a Node
 * process of the stand-in (the app's main process and its utility processes):
 *
 * - `fs` reads inside an archive as if it were a folder: `readFileSync`/`readFile`/`promises.readFile`,
 *   `existsSync`, `stat`/`lstat` (sync, callback, promise), `readdir`, `access`, `realpath`,
 *   `createReadStream`; writing into one fails (the archive is a file, so the OS answers ENOTDIR);
 * - `import` and `require` load modules from inside an archive (resolution by Node's own rules over the
 *   archive's file tree; a file marked `unpacked` is read from `<archive>.unpacked`);
 * - `worker_threads` cannot start a script inside an archive (electron/electron#22446): the hooks are
 *   installed on the main thread only, so a worker's loader meets the plain file system, as in Electron;
 * - `child_process` cannot run a program, a script or a working directory inside an archive, and a
 *   native module (`.node`) inside one cannot be loaded: both are refused with the errors the OS gives;
 * - `<archive>.unpacked` is an ordinary folder.
 * Not reproduced: `process.noAsar`, `execFile`'s extraction to a temporary file (Electron copies a
 * binary out of the archive for `execFile`; here it is refused like the rest of `child_process`), and
 * the archive integrity check (a fuse; see docs/main-process.md).
 */

const archives = new Map<string, AsarArchive | null>()

/** The archive a path goes through, and the path inside it; undefined for an ordinary path. */
export function locate(path: string): { archive: AsarArchive; inner: string } | undefined {
  if (typeof path !== 'string' || !isAbsolute(path)) return undefined
  const split = splitArchivePath(path)
  if (!split) return undefined
  let archive = archives.get(split.archive)
  if (archive === undefined) {
    try {
      archive = original.statSync(split.archive).isFile() ? new AsarArchive(split.archive) : null
    } catch {
      archive = null
    }
    archives.set(split.archive, archive)
  }
  return archive ? { archive, inner: split.inner } : undefined
}

const original = {
  readFileSync: fs.readFileSync,
  readFile: fs.readFile,
  promisesReadFile: fs.promises.readFile,
  existsSync: fs.existsSync,
  statSync: fs.statSync,
  lstatSync: fs.lstatSync,
  stat: fs.stat,
  lstat: fs.lstat,
  promisesStat: fs.promises.stat,
  promisesLstat: fs.promises.lstat,
  readdirSync: fs.readdirSync,
  readdir: fs.readdir,
  promisesReaddir: fs.promises.readdir,
  accessSync: fs.accessSync,
  access: fs.access,
  promisesAccess: fs.promises.access,
  realpathSync: fs.realpathSync,
  realpath: fs.realpath,
  promisesRealpath: fs.promises.realpath,
  createReadStream: fs.createReadStream,
}

type PathLike = fs.PathLike | number
const asPath = (path: PathLike): string | undefined =>
  typeof path === 'string'
    ? path
    : path instanceof URL
      ? fileURLToPath(path)
      : Buffer.isBuffer(path)
        ? path.toString()
        : undefined

function entryAt(path: string, syscall: string): { archive: AsarArchive; inner: string; entry: AsarEntry } {
  const found = locate(path)!
  const entry = found.archive.find(found.inner)
  if (!entry) throw notFound(path, syscall)
  return { ...found, entry }
}

/** A `fs.Stats` for an entry, with the archive's own times, as Electron answers. */
function statsOf(archive: AsarArchive, entry: AsarEntry): fs.Stats {
  const base = original.statSync(archive.path)
  const isDir = entry.kind === 'directory'
  const size = entry.kind === 'file' ? entry.size : 0
  const stats = Object.create(fs.Stats.prototype) as fs.Stats
  return Object.assign(stats, {
    dev: base.dev,
    ino: base.ino,
    mode: isDir ? 0o040755 : entry.kind === 'file' && entry.executable ? 0o100755 : 0o100644,
    nlink: 1,
    uid: base.uid,
    gid: base.gid,
    rdev: 0,
    size,
    blksize: base.blksize,
    blocks: Math.ceil(size / 512),
    atimeMs: base.atimeMs,
    mtimeMs: base.mtimeMs,
    ctimeMs: base.ctimeMs,
    birthtimeMs: base.birthtimeMs,
    atime: base.atime,
    mtime: base.mtime,
    ctime: base.ctime,
    birthtime: base.birthtime,
    isFile: () => !isDir,
    isDirectory: () => isDir,
    isSymbolicLink: () => false,
    isBlockDevice: () => false,
    isCharacterDevice: () => false,
    isFIFO: () => false,
    isSocket: () => false,
  })
}

function readInside(path: string, options: unknown): string | Buffer {
  const { archive, inner, entry } = entryAt(path, 'open')
  if (entry.kind === 'directory') {
    const error = new Error(`EISDIR: illegal operation on a directory, read`) as NodeJS.ErrnoException
    error.code = 'EISDIR'
    throw error
  }
  const bytes = archive.read(inner)
  const encoding = typeof options === 'string' ? options : (options as { encoding?: string } | null)?.encoding
  return encoding ? bytes.toString(encoding as BufferEncoding) : bytes
}

function namesInside(path: string, options: unknown): unknown[] {
  const { entry, archive, inner } = entryAt(path, 'scandir')
  if (entry.kind !== 'directory') {
    const error = new Error(`ENOTDIR: not a directory, scandir '${path}'`) as NodeJS.ErrnoException
    error.code = 'ENOTDIR'
    throw error
  }
  const names = [...entry.entries.keys()]
  if (!(options as { withFileTypes?: boolean } | null)?.withFileTypes) return names
  return names.map((name) => {
    const child = archive.find(inner ? `${inner}/${name}` : name)!
    const isDir = child.kind === 'directory'
    return Object.assign(Object.create(fs.Dirent.prototype) as fs.Dirent, {
      name,
      parentPath: path,
      isFile: () => !isDir,
      isDirectory: () => isDir,
      isSymbolicLink: () => false,
      isBlockDevice: () => false,
      isCharacterDevice: () => false,
      isFIFO: () => false,
      isSocket: () => false,
    })
  })
}

type Callback = (error: NodeJS.ErrnoException | null, value?: unknown) => void
/** Runs an archive answer for a callback API on a later turn, as the real call would answer. */
function later(callback: Callback, work: () => unknown): void {
  let value: unknown
  try {
    value = work()
  } catch (error) {
    process.nextTick(callback, error as NodeJS.ErrnoException)
    return
  }
  process.nextTick(callback, null, value)
}
const lastCallback = (args: unknown[]) => args.at(-1) as Callback

function patchFs(): void {
  const inside = (path: PathLike) => {
    const text = asPath(path)
    return text !== undefined && locate(text) !== undefined ? text : undefined
  }
  const patched: Record<string, unknown> = {
    readFileSync(path: PathLike, options?: unknown) {
      const p = inside(path)
      return p ? readInside(p, options) : original.readFileSync(path, options as never)
    },
    readFile(path: PathLike, ...rest: unknown[]) {
      const p = inside(path)
      if (!p) return (original.readFile as (...a: unknown[]) => void)(path, ...rest)
      later(lastCallback(rest), () => readInside(p, rest.length > 1 ? rest[0] : undefined))
    },
    existsSync(path: PathLike) {
      const text = asPath(path)
      const found = text !== undefined ? locate(text) : undefined
      return found ? found.archive.find(found.inner) !== undefined : original.existsSync(path as fs.PathLike)
    },
    statSync(path: PathLike, options?: { throwIfNoEntry?: boolean }) {
      const p = inside(path)
      if (!p) return original.statSync(path as fs.PathLike, options as never)
      try {
        const { archive, entry } = entryAt(p, 'stat')
        return statsOf(archive, entry)
      } catch (error) {
        if (options?.throwIfNoEntry === false) return undefined
        throw error
      }
    },
    stat(path: PathLike, ...rest: unknown[]) {
      const p = inside(path)
      if (!p) return (original.stat as (...a: unknown[]) => void)(path, ...rest)
      later(lastCallback(rest), () => {
        const { archive, entry } = entryAt(p, 'stat')
        return statsOf(archive, entry)
      })
    },
    readdirSync(path: PathLike, options?: unknown) {
      const p = inside(path)
      return p ? namesInside(p, options) : original.readdirSync(path as fs.PathLike, options as never)
    },
    readdir(path: PathLike, ...rest: unknown[]) {
      const p = inside(path)
      if (!p) return (original.readdir as (...a: unknown[]) => void)(path, ...rest)
      later(lastCallback(rest), () => namesInside(p, rest.length > 1 ? rest[0] : undefined))
    },
    accessSync(path: PathLike, mode?: number) {
      const p = inside(path)
      if (!p) return original.accessSync(path as fs.PathLike, mode)
      entryAt(p, 'access')
    },
    access(path: PathLike, ...rest: unknown[]) {
      const p = inside(path)
      if (!p) return (original.access as (...a: unknown[]) => void)(path, ...rest)
      later(lastCallback(rest), () => void entryAt(p, 'access'))
    },
    realpathSync: Object.assign(
      (path: PathLike, options?: unknown) => {
        const p = inside(path)
        if (!p) return original.realpathSync(path as fs.PathLike, options as never)
        entryAt(p, 'realpath')
        return p
      },
      { native: fs.realpathSync.native },
    ),
    realpath: Object.assign(
      (path: PathLike, ...rest: unknown[]) => {
        const p = inside(path)
        if (!p) return (original.realpath as (...a: unknown[]) => void)(path, ...rest)
        later(lastCallback(rest), () => (entryAt(p, 'realpath'), p))
      },
      { native: fs.realpath.native },
    ),
    createReadStream(path: PathLike, options?: { start?: number; end?: number }) {
      const p = inside(path)
      if (!p) return original.createReadStream(path as fs.PathLike, options as never)
      const bytes = readInside(p, null) as Buffer
      const start = options?.start ?? 0
      const end = options?.end === undefined ? bytes.length : options.end + 1
      return Readable.from([bytes.subarray(start, end)], { objectMode: false })
    },
  }
  patched.lstatSync = patched.statSync
  patched.lstat = patched.stat
  Object.assign(fs, patched)
  const promises = fs.promises as unknown as Record<string, unknown>
  const promised =
    (sync: (...a: unknown[]) => unknown, fallback: (...a: unknown[]) => unknown) =>
    async (path: PathLike, ...rest: unknown[]) =>
      inside(path) ? sync(path, ...rest) : fallback(path, ...rest)
  promises.readFile = promised(patched.readFileSync as never, original.promisesReadFile as never)
  promises.stat = promised(patched.statSync as never, original.promisesStat as never)
  promises.lstat = promised(patched.statSync as never, original.promisesLstat as never)
  promises.readdir = promised(patched.readdirSync as never, original.promisesReaddir as never)
  promises.access = promised(patched.accessSync as never, original.promisesAccess as never)
  promises.realpath = promised(patched.realpathSync as never, original.promisesRealpath as never)
  syncBuiltinESMExports()
}

// ---- modules: Node's resolution over the archive's file tree ----

/**
 * Each archive's file tree as empty files (package.json files with their content) under a temp folder:
 * Node's own resolver runs over it, so `exports`, `main`, extensions and `node_modules` lookups follow
 * Node's rules exactly; the answer is mapped back into the archive, whose bytes the load hook serves.
 */
const skeletons = new Map<string, string>()
function skeletonOf(archive: AsarArchive): string {
  let root = skeletons.get(archive.path)
  if (root) return root
  const key = createHash('sha256')
    .update(archive.path)
    .update(String(original.statSync(archive.path).mtimeMs))
    .digest('hex')
    .slice(0, 16)
  root = join(tmpdir(), `cadence-asar-tree-${key}`)
  if (!original.existsSync(root)) {
    // Built aside and renamed into place: main and a utility process may build it at the same time.
    const building = `${root}.${process.pid}`
    for (const [inner] of archive.files()) {
      const file = join(building, inner)
      fs.mkdirSync(dirname(file), { recursive: true })
      fs.writeFileSync(file, inner.endsWith('package.json') ? archive.read(inner) : '')
    }
    try {
      fs.renameSync(building, root)
    } catch {
      fs.rmSync(building, { recursive: true, force: true })
    }
  }
  skeletons.set(archive.path, root)
  return root
}

function toSkeletonUrl(url: string): string | undefined {
  if (!url.startsWith('file:')) return undefined
  const found = locate(fileURLToPath(url))
  if (!found) return undefined
  return pathToFileURL(join(skeletonOf(found.archive), found.inner)).href
}
function fromSkeletonUrl(url: string): string {
  if (!url.startsWith('file:')) return url
  const path = fileURLToPath(url)
  for (const [archive, root] of skeletons) {
    if (path === root || path.startsWith(root + '/'))
      return pathToFileURL(archive + path.slice(root.length)).href
  }
  return url
}

function formatOf(url: string, given: string | null | undefined): string {
  if (given) return given
  const ext = extname(new URL(url).pathname)
  if (ext === '.mjs') return 'module'
  if (ext === '.cjs') return 'commonjs'
  if (ext === '.json') return 'json'
  // The nearest package.json inside the archive decides a `.js`.
  let dir = dirname(fileURLToPath(url))
  for (;;) {
    const found = locate(join(dir, 'package.json'))
    if (!found || found.archive.find(found.inner) === undefined) {
      const up = dirname(dir)
      if (up === dir || !locate(up)) return 'commonjs'
      dir = up
      continue
    }
    const json = JSON.parse(found.archive.read(found.inner).toString('utf8')) as { type?: string }
    return json.type === 'module' ? 'module' : 'commonjs'
  }
}

/**
 * Resolves a specifier met inside an archive, without Node's default step (which would tell the ESM
 * loader to load an imported CommonJS module again through the plain file system). Relative and absolute
 * specifiers are taken as written when the parent is an ES module (no extension search, as in ESM) and
 * by CommonJS rules otherwise; bare ones by Node's package resolution (`exports` with the caller's
 * conditions, `main`, `node_modules` upwards) over the archive's tree.
 */
export function resolveInArchive(specifier: string, parentUrl: string, conditions: string[]): string {
  const parentSkeleton = fileURLToPath(toSkeletonUrl(parentUrl)!)
  const esm = conditions.includes('import')
  if (esm && (/^\.{0,2}\//.test(specifier) || specifier.startsWith('file:'))) {
    const path = fileURLToPath(new URL(specifier, parentUrl))
    const found = locate(path)
    const entry = found
      ? found.archive.find(found.inner)
      : original.existsSync(path as fs.PathLike)
        ? true
        : undefined
    if (!entry || (entry !== true && entry.kind !== 'file')) {
      throw Object.assign(
        new Error(`Cannot find module '${path}' imported from ${fileURLToPath(parentUrl)}`),
        {
          code: 'ERR_MODULE_NOT_FOUND',
        },
      )
    }
    return pathToFileURL(path).href
  }
  const Module = createRequire(import.meta.url)('node:module') as {
    _resolveFilename(request: string, parent: unknown, isMain: boolean, options: unknown): string
    _nodeModulePaths(dir: string): string[]
  }
  const parent = {
    id: parentSkeleton,
    filename: parentSkeleton,
    paths: Module._nodeModulePaths(dirname(parentSkeleton)),
  }
  const resolved = Module._resolveFilename(specifier, parent, false, { conditions: new Set(conditions) })
  return fromSkeletonUrl(pathToFileURL(resolved).href)
}

function installModuleHooks(): void {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier.startsWith('node:')) return nextResolve(specifier, context)
      const direct = specifier.startsWith('file:')
        ? specifier
        : isAbsolute(specifier)
          ? pathToFileURL(specifier).href
          : undefined
      const parentInside = context.parentURL !== undefined && toSkeletonUrl(context.parentURL) !== undefined
      if (direct && toSkeletonUrl(direct)) {
        // A path into an archive (the app's entry, or an absolute import): taken as it is.
        const found = locate(fileURLToPath(direct))!
        if (found.archive.find(found.inner)?.kind !== 'file') {
          throw Object.assign(new Error(`Cannot find module '${fileURLToPath(direct)}'`), {
            code: 'ERR_MODULE_NOT_FOUND',
          })
        }
        return { url: direct, format: formatOf(direct, undefined), shortCircuit: true }
      }
      if (!parentInside) return nextResolve(specifier, context)
      // Node's built-ins and Electron's own module (the stand-in's register.ts answers it).
      if (isBuiltin(specifier) || specifier === 'electron') return nextResolve(specifier, context)
      const url = resolveInArchive(specifier, context.parentURL!, context.conditions ?? ['node', 'require'])
      return {
        url,
        format: url.startsWith('file:') && locate(fileURLToPath(url)) ? formatOf(url, undefined) : undefined,
        shortCircuit: true,
      }
    },
    load(url, context, nextLoad) {
      const found = url.startsWith('file:') ? locate(fileURLToPath(url)) : undefined
      if (!found) return nextLoad(url, context)
      if (url.endsWith('.node')) {
        throw Object.assign(
          new Error(`Cannot load a native module from inside an archive: ${fileURLToPath(url)}`),
          {
            code: 'ERR_DLOPEN_FAILED',
          },
        )
      }
      const format = formatOf(url, context.format)
      const source = found.archive.read(found.inner)
      return { format, source: format === 'json' ? source.toString('utf8') : source, shortCircuit: true }
    },
  })
}

// ---- child_process and native modules: the OS sees a file, not a folder ----

function notADirectory(path: string, syscall: string): NodeJS.ErrnoException {
  const error = new Error(`ENOTDIR: not a directory, ${syscall} '${path}'`) as NodeJS.ErrnoException
  error.code = 'ENOTDIR'
  error.errno = -20
  error.syscall = syscall
  error.path = path
  return error
}

function patchChildProcess(): void {
  const intoArchive = (value: unknown) =>
    typeof value === 'string' && isAbsolute(value) && locate(resolvePath(value)) !== undefined
  const guard =
    <T extends (...args: never[]) => unknown>(name: string, fn: T, scriptArg: boolean) =>
    (...args: unknown[]) => {
      const options = args.find((arg) => arg && typeof arg === 'object' && !Array.isArray(arg)) as
        { cwd?: unknown } | undefined
      const argv = Array.isArray(args[1]) ? (args[1] as unknown[]) : []
      const suspect = [args[0], options?.cwd, ...(scriptArg ? argv.slice(0, 1) : [])].find(intoArchive)
      if (suspect !== undefined) throw notADirectory(String(suspect), name)
      return (fn as unknown as (...a: unknown[]) => unknown)(...args)
    }
  const cp = childProcess as unknown as Record<string, unknown>
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
    cp[name] = guard(name, cp[name] as never, false)
  }
  const dlopen = process.dlopen.bind(process)
  process.dlopen = ((...args: Parameters<typeof process.dlopen>) => {
    if (intoArchive(args[1])) throw notADirectory(args[1], 'dlopen')
    return dlopen(...args)
  }) as typeof process.dlopen
  syncBuiltinESMExports()
}

/** `child_process.fork` as it was before the rules: the stand-in's `utilityProcess`, which Electron lets
 * start a module inside an archive, forks with it. */
export const unguardedFork = childProcess.fork

let installed = false
/** Installs the asar rules into this process (once; on the main thread only: workers get none). */
export function installAsarRules(): void {
  if (installed || !isMainThread) return
  installed = true
  patchFs()
  installModuleHooks()
  patchChildProcess()
}
