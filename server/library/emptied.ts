import { readdirSync } from 'node:fs'
import { sep } from 'node:path'
import type { DB } from '../db/sqlite'
import { statement } from '../db/sqlite'
import { decodePath, encodePath, isInside, type RawPath } from './paths'

/** Whether the library holds a song from a file below `root`. */
function holdsSongs(db: DB, root: RawPath): boolean {
  const stored = encodePath(root)
  const next = String.fromCharCode(sep.charCodeAt(0) + 1)
  if (
    statement(
      db,
      'SELECT 1 FROM library_files WHERE song_id IS NOT NULL AND path >= ? AND path < ? LIMIT 1',
    ).get(stored + sep, stored + next)
  ) {
    return true
  }
  const bytes = statement(
    db,
    "SELECT path FROM library_files WHERE song_id IS NOT NULL AND substr(path, 1, 6) = 'bytes:'",
  ).all() as Array<{ path: string }>
  return bytes.some(({ path }) => {
    const raw = decodePath(path)
    return isInside(typeof raw === 'string' ? Buffer.from(raw) : raw, root)
  })
}

/**
 * Chosen folders that are there but hold nothing at all while the library has songs from them: what a
 * drive unmounted leaves when its mount point stays (`/mnt/music`). They are taken as not there (their
 * songs kept, unavailable), not as emptied by hand; a folder emptied by hand that keeps anything (a
 * cover, a hidden file) is not.
 */
export function emptiedRoots(db: DB, roots: RawPath[]): RawPath[] {
  return roots.filter((root) => {
    try {
      if (readdirSync(root).length > 0) return false
    } catch {
      return false // not there: the walk reports it
    }
    return holdsSongs(db, root)
  })
}
