import { DatabaseSync } from 'node:sqlite'
import type { HistoryCursor, HistoryEntry, Listen } from '../../../../shared/ipc/history'

/**
 * The listening history's SQLite file (`node:sqlite`, built into Node 24 and Electron): one table of
 * listens, newest first by an index on `listened_at`. Every write is one transaction in WAL mode, so a
 * crash mid-write leaves the file as it was before it; the file's `user_version` says its layout, and an
 * older one is brought up to date when opened. Imports only `node:sqlite` (a test runs it in a child
 * process it kills mid-write).
 */

/** The layout this code writes. 0: an empty file (or none). */
export const HISTORY_FILE_VERSION = 1

interface Row {
  id: number
  listened_at: number
  source_id: string
  song_id: string
  title: string
  artists: string
  album: string | null
  album_id: string | null
  duration_ms: number
  cover: string | null
}

function migrate(db: DatabaseSync) {
  const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version
  if (version > HISTORY_FILE_VERSION) {
    throw new Error(`The history file is from a newer Cadence (layout ${version}); it is left untouched`)
  }
  if (version === HISTORY_FILE_VERSION) return
  db.exec('BEGIN IMMEDIATE')
  try {
    if (version < 1) {
      db.exec(`CREATE TABLE IF NOT EXISTS listens (
        id INTEGER PRIMARY KEY,
        listened_at INTEGER NOT NULL,
        source_id TEXT NOT NULL,
        song_id TEXT NOT NULL,
        title TEXT NOT NULL,
        artists TEXT NOT NULL,
        album TEXT,
        album_id TEXT,
        duration_ms INTEGER NOT NULL,
        cover TEXT
      )`)
      db.exec('CREATE INDEX IF NOT EXISTS listens_by_time ON listens (listened_at DESC, id DESC)')
      db.exec('CREATE UNIQUE INDEX IF NOT EXISTS listens_once ON listens (listened_at, source_id, song_id)')
    }
    db.exec(`PRAGMA user_version = ${HISTORY_FILE_VERSION}`)
    db.exec('COMMIT')
  } catch (error) {
    db.exec('ROLLBACK')
    throw error
  }
}

const toEntry = (row: Row): HistoryEntry => ({
  id: row.id,
  listenedAt: row.listened_at,
  sourceId: row.source_id,
  songId: row.song_id,
  title: row.title,
  artists: JSON.parse(row.artists) as string[],
  ...(row.album !== null ? { album: row.album } : {}),
  ...(row.album_id !== null ? { albumId: row.album_id } : {}),
  durationMs: row.duration_ms,
  ...(row.cover !== null ? { cover: row.cover } : {}),
})

/** `maxPages`: a cap on the file's size in pages (SQLite's `max_page_count`: a disk that fills up, in tests). */
export function openHistoryStore(path: string, options: { maxPages?: number } = {}) {
  const db = new DatabaseSync(path)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec('PRAGMA busy_timeout = 2000')
  migrate(db)
  if (options.maxPages) db.exec(`PRAGMA max_page_count = ${Math.floor(options.maxPages)}`)

  const insert = db.prepare(`INSERT OR IGNORE INTO listens
    (listened_at, source_id, song_id, title, artists, album, album_id, duration_ms, cover)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
  const newest = db.prepare('SELECT * FROM listens ORDER BY listened_at DESC, id DESC LIMIT ?')
  const older = db.prepare(
    `SELECT * FROM listens WHERE listened_at < ? OR (listened_at = ? AND id < ?)
     ORDER BY listened_at DESC, id DESC LIMIT ?`,
  )
  const counted = db.prepare('SELECT COUNT(*) AS n FROM listens')
  const since = db.prepare('SELECT DISTINCT source_id, song_id FROM listens WHERE listened_at >= ?')

  /** Runs `work` in one transaction: all of it is written, or none. */
  function transaction<T>(work: () => T): T {
    db.exec('BEGIN IMMEDIATE')
    try {
      const result = work()
      db.exec('COMMIT')
      return result
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK')
      throw error
    }
  }

  return {
    /** Writes listens in one transaction; answers how many were new (one already there is skipped). */
    add(listens: readonly Listen[]): number {
      return transaction(() => {
        let added = 0
        for (const l of listens) {
          const result = insert.run(
            l.listenedAt,
            l.sourceId,
            l.songId,
            l.title,
            JSON.stringify(l.artists),
            l.album ?? null,
            l.albumId ?? null,
            l.durationMs,
            l.cover ?? null,
          )
          added += Number(result.changes)
        }
        return added
      })
    },
    /** Newest first, `limit` listens older than `before` (or the newest). */
    page(limit: number, before?: HistoryCursor): HistoryEntry[] {
      const rows = before ? older.all(before.at, before.at, before.id, limit) : newest.all(limit)
      return (rows as unknown as Row[]).map(toEntry)
    },
    count: () => (counted.get() as { n: number }).n,
    /** Every listen, oldest first, a page at a time (for the export). */
    *all(): Generator<HistoryEntry> {
      const step = db.prepare('SELECT * FROM listens WHERE id > ? ORDER BY id LIMIT 1000')
      let last = 0
      for (;;) {
        const rows = step.all(last) as unknown as Row[]
        if (rows.length === 0) return
        for (const row of rows) yield toEntry(row)
        last = rows[rows.length - 1].id
      }
    },
    /** The songs (`sourceId:songId`) heard since `at`. */
    heardSince(at: number): Set<string> {
      const rows = since.all(at) as unknown as Array<{ source_id: string; song_id: string }>
      return new Set(rows.map((r) => `${r.source_id}:${r.song_id}`))
    },
    clear() {
      transaction(() => db.exec('DELETE FROM listens'))
    },
    /** The file checks out (`PRAGMA integrity_check`). */
    intact: () =>
      (db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check === 'ok',
    /** Sets the size cap again (the person freed space). */
    setMaxPages: (pages: number) => void db.exec(`PRAGMA max_page_count = ${Math.floor(pages)}`),
    close: () => db.close(),
  }
}

export type HistoryStore = ReturnType<typeof openHistoryStore>
