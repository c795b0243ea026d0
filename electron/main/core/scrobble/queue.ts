import { DatabaseSync } from 'node:sqlite'
import type { Listen } from '../../../../shared/ipc/history'
import type { ScrobbleServiceId } from '../../../../shared/ipc/scrobble'

/**
 * The listens waiting for ListenBrainz and Last.fm, in their own SQLite file (`node:sqlite`, WAL, one
 * transaction per write, so a crash leaves it as before the write). One row per (service, listen): the
 * listen's key is its start time, source and song, so a listen queued twice is one row. A row is deleted
 * only once the service acknowledged it; a row whose send was interrupted (a crash between send and
 * acknowledgement) is sent again with the same start time and metadata, which the service recognises
 * as the same listen (ListenBrainz keeps one listen per listened_at and track).
 */

/** The layout this code writes. */
export const SCROBBLE_FILE_VERSION = 1

/** A listen waiting for one service, and whether autoplay chose the song. */
export interface QueuedListen {
  id: number
  listen: Listen
  /** Times a send of it began. */
  attempts: number
}

interface Row {
  id: number
  listen: string
  attempts: number
}

function migrate(db: DatabaseSync) {
  const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version
  if (version > SCROBBLE_FILE_VERSION) {
    throw new Error(`The scrobble queue is from a newer Cadence (layout ${version}); it is left untouched`)
  }
  if (version === SCROBBLE_FILE_VERSION) return
  db.exec(`CREATE TABLE IF NOT EXISTS outgoing (
    id INTEGER PRIMARY KEY,
    service TEXT NOT NULL,
    listen_key TEXT NOT NULL,
    listened_at INTEGER NOT NULL,
    listen TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    UNIQUE (service, listen_key)
  )`)
  db.exec('CREATE INDEX IF NOT EXISTS outgoing_order ON outgoing (service, listened_at, id)')
  db.exec(`PRAGMA user_version = ${SCROBBLE_FILE_VERSION}`)
}

/** The listen's identity: the same play queued again is the same row. */
export const listenKey = (l: Listen) => `${l.listenedAt}:${l.sourceId}:${l.songId}`

export function openScrobbleQueue(path: string) {
  const db = new DatabaseSync(path)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec('PRAGMA busy_timeout = 2000')
  migrate(db)

  const insert = db.prepare(
    'INSERT OR IGNORE INTO outgoing (service, listen_key, listened_at, listen) VALUES (?, ?, ?, ?)',
  )
  const oldest = db.prepare(
    'SELECT id, listen, attempts FROM outgoing WHERE service = ? ORDER BY listened_at, id LIMIT ?',
  )
  const counted = db.prepare('SELECT COUNT(*) AS n FROM outgoing WHERE service = ?')
  const began = db.prepare('UPDATE outgoing SET attempts = attempts + 1 WHERE id = ?')
  const remove = db.prepare('DELETE FROM outgoing WHERE id = ?')
  let open = true

  function transaction(work: () => void) {
    db.exec('BEGIN IMMEDIATE')
    try {
      work()
      db.exec('COMMIT')
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK')
      throw error
    }
  }

  return {
    /** Queues a listen for each service; one already queued stays one row. */
    add(services: readonly ScrobbleServiceId[], listen: Listen) {
      const text = JSON.stringify(listen)
      transaction(() => {
        for (const s of services) insert.run(s, listenKey(listen), listen.listenedAt, text)
      })
    },
    /** The oldest `limit` listens waiting for `service`. */
    next(service: ScrobbleServiceId, limit: number): QueuedListen[] {
      const rows = oldest.all(service, limit) as unknown as Row[]
      return rows.map((r) => ({ id: r.id, listen: JSON.parse(r.listen) as Listen, attempts: r.attempts }))
    },
    /** Notes that a send of these rows begins (before the request leaves). */
    sending(ids: readonly number[]) {
      transaction(() => {
        for (const id of ids) began.run(id)
      })
    },
    /** The service acknowledged these rows (or refused them for good): they go, all in one transaction. */
    done(ids: readonly number[]) {
      if (!open) return
      transaction(() => {
        for (const id of ids) remove.run(id)
      })
    },
    count: (service: ScrobbleServiceId) => (counted.get(service) as { n: number }).n,
    get open() {
      return open
    },
    close() {
      if (!open) return
      open = false
      db.close()
    },
  }
}

export type ScrobbleQueue = ReturnType<typeof openScrobbleQueue>
