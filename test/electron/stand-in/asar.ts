import { closeSync, openSync, readSync } from 'node:fs'
import { join, sep } from 'node:path'

/**
 * A reader of Electron's asar archives (the format `@electron/asar` writes): an 8-byte pickle holding
 * the header's size, the header (a pickle around a JSON tree of `files`, each file with `size`, `offset`
 * as a decimal string counted from the end of the header, `unpacked` for a file kept beside the archive
 * in `<archive>.unpacked`, `link` for a symbolic link), then the files' bytes. Reads with the plain fs
 * bindings it was given at import time, so the asar rules can patch `fs` afterwards.
 */

export interface AsarFile {
  kind: 'file'
  size: number
  offset: number
  unpacked: boolean
  executable: boolean
}
export interface AsarDirectory {
  kind: 'directory'
  entries: Map<string, AsarEntry>
}
export interface AsarLink {
  kind: 'link'
  target: string
}
export type AsarEntry = AsarFile | AsarDirectory | AsarLink

interface HeaderNode {
  files?: Record<string, HeaderNode>
  size?: number
  offset?: string
  unpacked?: boolean
  executable?: boolean
  link?: string
}

export class AsarArchive {
  readonly path: string
  readonly root: AsarDirectory
  private readonly dataStart: number

  constructor(path: string) {
    this.path = path
    const fd = openSync(path, 'r')
    try {
      const sizePickle = Buffer.alloc(8)
      readSync(fd, sizePickle, 0, 8, 0)
      const headerSize = sizePickle.readUInt32LE(4)
      const header = Buffer.alloc(headerSize)
      readSync(fd, header, 0, headerSize, 8)
      const jsonLength = header.readUInt32LE(4)
      const json = JSON.parse(header.subarray(8, 8 + jsonLength).toString('utf8')) as HeaderNode
      this.dataStart = 8 + headerSize
      this.root = toEntry(json) as AsarDirectory
    } finally {
      closeSync(fd)
    }
  }

  /** The entry at a path inside the archive (`a/b.js`, `''` for the root), following links. */
  find(inner: string, depth = 0): AsarEntry | undefined {
    let entry: AsarEntry = this.root
    const parts = inner.split(/[\\/]/).filter((part) => part && part !== '.')
    for (let i = 0; i < parts.length; i++) {
      if (entry.kind === 'link') entry = this.find(entry.target, depth + 1) ?? entry
      if (entry.kind !== 'directory') return undefined
      const next = entry.entries.get(parts[i])
      if (!next) return undefined
      entry = next
    }
    if (entry.kind === 'link' && depth < 16) return this.find(entry.target, depth + 1)
    return entry
  }

  /** A file's bytes: from the archive, or from `<archive>.unpacked` when it was left out of it. */
  read(inner: string): Buffer {
    const entry = this.find(inner)
    if (!entry || entry.kind !== 'file') throw notFound(join(this.path, inner), 'open')
    if (entry.unpacked) return readWhole(join(`${this.path}.unpacked`, inner))
    const bytes = Buffer.alloc(entry.size)
    const fd = openSync(this.path, 'r')
    try {
      let done = 0
      while (done < entry.size) {
        const n = readSync(fd, bytes, done, entry.size - done, this.dataStart + entry.offset + done)
        if (n === 0) break
        done += n
      }
    } finally {
      closeSync(fd)
    }
    return bytes
  }

  /** Every file path inside the archive, `/`-separated, with its entry. */
  *files(dir: AsarDirectory = this.root, prefix = ''): Generator<[string, AsarFile]> {
    for (const [name, entry] of dir.entries) {
      const path = prefix ? `${prefix}/${name}` : name
      if (entry.kind === 'file') yield [path, entry]
      else if (entry.kind === 'directory') yield* this.files(entry, path)
    }
  }
}

function toEntry(node: HeaderNode): AsarEntry {
  if (node.files) {
    return {
      kind: 'directory',
      entries: new Map(Object.entries(node.files).map(([name, child]) => [name, toEntry(child)])),
    }
  }
  if (typeof node.link === 'string') return { kind: 'link', target: node.link }
  return {
    kind: 'file',
    size: node.size ?? 0,
    offset: Number(node.offset ?? 0),
    unpacked: node.unpacked === true,
    executable: node.executable === true,
  }
}

function readWhole(path: string): Buffer {
  const fd = openSync(path, 'r')
  try {
    const chunks: Buffer[] = []
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024)
      const n = readSync(fd, chunk, 0, chunk.length, null)
      if (n === 0) break
      chunks.push(chunk.subarray(0, n))
    }
    return Buffer.concat(chunks)
  } finally {
    closeSync(fd)
  }
}

export function notFound(path: string, syscall: string): NodeJS.ErrnoException {
  const error = new Error(`ENOENT: no such file or directory, ${syscall} '${path}'`) as NodeJS.ErrnoException
  error.code = 'ENOENT'
  error.errno = -2
  error.syscall = syscall
  error.path = path
  return error
}

/**
 * Splits an absolute path at its first `*.asar` segment: the archive's path and the path inside it
 * (`''` for the archive itself), or undefined for a path that does not go through an archive. As in
 * Electron, `app.asar.unpacked` is an ordinary folder.
 */
export function splitArchivePath(path: string): { archive: string; inner: string } | undefined {
  const parts = path.split(sep)
  const at = parts.findIndex((part, index) => index > 0 && part.endsWith('.asar'))
  if (at < 0) return undefined
  return { archive: parts.slice(0, at + 1).join(sep), inner: parts.slice(at + 1).join('/') }
}
