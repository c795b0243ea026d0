import { DatabaseSync } from 'node:sqlite'
import type {
  HistoryCursor,
  HistoryEntry,
  HistoryStatsAlbum,
  HistoryStatsArtist,
  HistoryStatsDay,
  HistoryStatsSong,
  Listen,
} from '../../../../shared/ipc/history'

/**
 * The listening history's SQLite file (`node:sqlite`, built into Node 24 and Electron): one table of
 * listens, newest first by an index on `listened_at`. Every write is one transaction in WAL mode, so a
 * crash mid-write leaves the file as it was before it; the file's `user_version` says its layout, and an
 * older one is brought up to date when opened. "Your listening, in pictures" is SQL aggregates over it
 * (`prepareStats`): the listens since a time found by the `listened_at` indexes, grouped by song, by artist
 * (`listen_artists`, one row per artist of a listen) and by album, and counted per local day. Imports only
 * `node:sqlite` (a test runs it in a child process it kills mid-write).
 */

/**
 * The layout this code writes. 0: an empty file (or none). 1: listens. 2: each listen's artists one per
 * row (`listen_artists`, for the statistics' top artists) and indexes by song and by album.
 */
export const HISTORY_FILE_VERSION = 2

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
    if (version < 2) {
      // Each listen's artists one per row, with its time and length. Each top list is read in the order of
      // its own covering index (song, artist, album, then time), grouped as it goes, the span's listens
      // picked out by time on the way; days come from the index on time.
      db.exec(`CREATE TABLE IF NOT EXISTS listen_artists (
        listen_id INTEGER NOT NULL,
        listened_at INTEGER NOT NULL,
        name TEXT NOT NULL,
        duration_ms INTEGER NOT NULL
      )`)
      db.exec(
        'CREATE INDEX IF NOT EXISTS listen_artists_by_name ON listen_artists (name, listened_at, duration_ms)',
      )
      db.exec('CREATE INDEX IF NOT EXISTS listens_by_song ON listens (source_id, song_id, listened_at)')
      db.exec('CREATE INDEX IF NOT EXISTS listens_by_album ON listens (album, album_id, listened_at)')
      db.exec('CREATE INDEX IF NOT EXISTS listens_by_day ON listens (listened_at, duration_ms)')
      // A file from layout 1: its listens' artists (a JSON array per listen), one row each.
      db.exec(`INSERT INTO listen_artists (listen_id, listened_at, name, duration_ms)
        SELECT DISTINCT l.id, l.listened_at, a.value, l.duration_ms
        FROM listens AS l, json_each(l.artists) AS a WHERE a.type = 'text'`)
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

const DAY_MS = 86_400_000

interface SongRow {
  source_id: string
  song_id: string
  listens: number
  title: string
  artists: string
  album: string | null
  album_id: string | null
  duration_ms: number
  cover: string | null
}
interface AlbumRow {
  album: string
  album_id: string | null
  listens: number
  artists: string
  cover: string | null
}

const names = (json: string): string[] => {
  const value: unknown = JSON.parse(json)
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

/** The statistics' queries on the history file; `top`: how many songs, artists and albums each list holds. */
function prepareStats(db: DatabaseSync) {
  // The top songs, each shown as its latest listen (title, artists, cover as last heard).
  const songs = db.prepare(`WITH top AS (
      SELECT source_id, song_id, COUNT(*) AS listens, MAX(id) AS latest FROM listens
      WHERE listened_at >= ? GROUP BY source_id, song_id
      ORDER BY listens DESC, latest DESC LIMIT ?
    )
    SELECT top.source_id, top.song_id, top.listens, l.title, l.artists, l.album, l.album_id,
      l.duration_ms, l.cover
    FROM top JOIN listens AS l ON l.id = top.latest ORDER BY top.listens DESC, top.latest DESC`)
  const artists = db.prepare(`SELECT name, COUNT(*) AS listens, SUM(duration_ms) AS ms
    FROM listen_artists WHERE listened_at >= ? GROUP BY name ORDER BY listens DESC, ms DESC, name LIMIT ?`)
  const albums = db.prepare(`WITH top AS (
      SELECT album, album_id, COUNT(*) AS listens, MAX(id) AS latest
      FROM listens WHERE listened_at >= ? AND album IS NOT NULL AND album <> ''
      GROUP BY album, album_id ORDER BY listens DESC, latest DESC LIMIT ?
    )
    SELECT top.album, top.album_id, top.listens, l.artists, l.cover
    FROM top JOIN listens AS l ON l.id = top.latest ORDER BY top.listens DESC, top.latest DESC`)
  const days = db.prepare(`SELECT (listened_at + CAST(? AS INTEGER)) / ${DAY_MS} AS day, COUNT(*) AS listens,
      SUM(duration_ms) AS ms
    FROM listens WHERE listened_at >= ? GROUP BY day ORDER BY day`)

  return (since: number, utcOffsetMinutes: number, top: number) => {
    const topSongs = (songs.all(since, top) as unknown as SongRow[]).map((r): HistoryStatsSong => ({
      sourceId: r.source_id,
      songId: r.song_id,
      title: r.title,
      artists: names(r.artists),
      ...(r.album !== null ? { album: r.album } : {}),
      ...(r.album_id !== null ? { albumId: r.album_id } : {}),
      ...(r.cover !== null ? { cover: r.cover } : {}),
      durationMs: r.duration_ms,
      listens: r.listens,
    }))
    const topArtists = artists.all(since, top) as unknown as HistoryStatsArtist[]
    const topAlbums = (albums.all(since, top) as unknown as AlbumRow[]).map((r): HistoryStatsAlbum => ({
      album: r.album,
      ...(r.album_id !== null ? { albumId: r.album_id } : {}),
      artists: names(r.artists),
      ...(r.cover !== null ? { cover: r.cover } : {}),
      listens: r.listens,
    }))
    const perDay = days.all(utcOffsetMinutes * 60_000, since) as unknown as HistoryStatsDay[]
    return {
      // The span's totals are its days' (one pass over the index fewer).
      listens: perDay.reduce((n, d) => n + d.listens, 0),
      listenedMs: perDay.reduce((n, d) => n + d.ms, 0),
      topSongs,
      topArtists: topArtists.map((a) => ({ name: a.name, listens: a.listens, ms: a.ms })),
      topAlbums,
      days: perDay.map((d) => ({ day: d.day, listens: d.listens, ms: d.ms })),
    }
  }
}

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
  const insertArtist = db.prepare(
    'INSERT INTO listen_artists (listen_id, listened_at, name, duration_ms) VALUES (?, ?, ?, ?)',
  )
  const newest = db.prepare('SELECT * FROM listens ORDER BY listened_at DESC, id DESC LIMIT ?')
  const older = db.prepare(
    `SELECT * FROM listens WHERE listened_at < ? OR (listened_at = ? AND id < ?)
     ORDER BY listened_at DESC, id DESC LIMIT ?`,
  )
  const counted = db.prepare('SELECT COUNT(*) AS n FROM listens')
  const since = db.prepare('SELECT DISTINCT source_id, song_id FROM listens WHERE listened_at >= ?')
  const stats = prepareStats(db)

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
          if (Number(result.changes) === 0) continue
          added++
          for (const name of new Set(l.artists))
            insertArtist.run(result.lastInsertRowid, l.listenedAt, name, l.durationMs)
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
    /** "Your listening, in pictures" for listens since `since` (`core/history/stats.ts`). */
    stats: (since: number, utcOffsetMinutes: number, top: number) => stats(since, utcOffsetMinutes, top),
    heardSince(at: number): Set<string> {
      const rows = since.all(at) as unknown as Array<{ source_id: string; song_id: string }>
      return new Set(rows.map((r) => `${r.source_id}:${r.song_id}`))
    },
    clear() {
      transaction(() => db.exec('DELETE FROM listen_artists; DELETE FROM listens'))
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
