import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** The data dir holds credentials' hashes, the media-signing secret and the owner's library: private. */
export const PRIVATE_DIR_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

/**
 * Makes the data dir private to the user running the server, whatever the umask: the folder 0700, every
 * file in it 0600 and every folder below 0700 (fixing what an earlier version left readable). The database
 * file is created 0600 before SQLite opens it, because SQLite gives its `-wal` and `-shm` files the
 * database file's mode. Symbolic links are left alone (never followed). Files made later pass these
 * modes themselves (`secret.key`, the audio cache).
 */
export function secureDataDir(dataDir: string): { notPrivate: string[] } {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE })
  closeSync(openSync(join(dataDir, 'cadence.sqlite'), 'a', PRIVATE_FILE_MODE))
  const notPrivate: string[] = []
  tighten(dataDir, notPrivate)
  return { notPrivate }
}

/**
 * Sets the private mode on `path` and below. A file system without Unix modes (a FAT drive) refuses
 * chmod: the path is reported, not fatal.
 */
function tighten(path: string, notPrivate: string[]): void {
  const st = lstatSync(path)
  if (st.isSymbolicLink()) return
  const wanted = st.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE
  if ((st.mode & 0o777) !== wanted) {
    try {
      chmodSync(path, wanted)
    } catch {
      notPrivate.push(path)
    }
  }
  if (st.isDirectory()) for (const name of readdirSync(path)) tighten(join(path, name), notPrivate)
}
