import type { DB } from '../db/sqlite'
import { MAX_UNREADABLE_SHOWN, type MusicFolder } from '@shared/ipc/music-folders'
import { decodePath, displayPath, isInside } from './paths'

/** What each chosen folder holds after an import: songs, unreadable files with their reason, missing. */
export function folderStatus(db: DB, folders: string[], missing: string[], scannedAt: number): MusicFolder[] {
  const rows = db.prepare('SELECT path, song_id, error FROM library_files').all() as Array<{
    path: string
    song_id: number | null
    error: string | null
  }>
  return folders.map((folder) => {
    const root = Buffer.from(folder)
    const status: MusicFolder = {
      path: folder,
      songs: 0,
      scannedAt,
      missing: missing.includes(folder),
      unreadable: [],
      unreadableCount: 0,
    }
    for (const row of rows) {
      const raw = decodePath(row.path)
      if (!isInside(typeof raw === 'string' ? Buffer.from(raw) : raw, root)) continue
      if (row.song_id !== null) status.songs!++
      else if (row.error) {
        status.unreadableCount++
        if (status.unreadable.length < MAX_UNREADABLE_SHOWN) {
          status.unreadable.push({ path: displayPath(row.path), error: row.error })
        }
      }
    }
    return status
  })
}
