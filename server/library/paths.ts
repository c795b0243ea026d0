import { sep } from 'node:path'

/**
 * A file path as the library stores it. Directory entries are read as bytes, so a name that is not valid
 * UTF-8 (a Latin-1 name from an old disk) keeps its exact bytes: such a path is stored as `bytes:` and its
 * hex digits; any other path as itself. Stored paths are absolute, so the prefix cannot be a real path.
 */
export type RawPath = Buffer

const BYTES = 'bytes:'

export function encodePath(raw: RawPath): string {
  const text = raw.toString('utf8')
  return Buffer.from(text, 'utf8').equals(raw) ? text : BYTES + raw.toString('hex')
}

/** The path to hand to `fs`: a string, or the exact bytes of a name that is not UTF-8. */
export function decodePath(stored: string): string | Buffer {
  return stored.startsWith(BYTES) ? Buffer.from(stored.slice(BYTES.length), 'hex') : stored
}

/** A stored path for showing and logging (bytes that are not UTF-8 become U+FFFD). */
export function displayPath(stored: string): string {
  const p = decodePath(stored)
  return typeof p === 'string' ? p : p.toString('utf8')
}

/** Whether `path` is `root` or inside it (both absolute, resolved, as raw bytes). */
export function isInside(path: RawPath, root: RawPath): boolean {
  if (path.equals(root)) return true
  const prefix = root[root.length - 1] === sep.charCodeAt(0) ? root : Buffer.concat([root, Buffer.from(sep)])
  return path.length > prefix.length && path.subarray(0, prefix.length).equals(prefix)
}

export function joinRaw(dir: RawPath, name: RawPath): RawPath {
  return dir[dir.length - 1] === sep.charCodeAt(0)
    ? Buffer.concat([dir, name])
    : Buffer.concat([dir, Buffer.from(sep), name])
}
