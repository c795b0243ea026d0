import { stat } from 'node:fs/promises'
import { basename, extname, resolve } from 'node:path'
import type { DB } from '../db/sqlite'
import { statement, transaction } from '../db/sqlite'
import { SearchIndexer } from '../db/search-index'
import { CachedFile } from './cached-file'
import { groupAlbums, pictureKey, type Picture } from './albums'
import { contentKey } from './identity'
import { emptiedRoots } from './emptied'
import { decodePath, displayPath, encodePath, isInside, type RawPath } from './paths'
import { primaryArtist, readMetadata, sidecarLyrics, trackInfo, type TrackInfo } from './tags'
import { MAX_FILES, audioType, walkFolders, type FoundFile } from './walk'

export interface ImportReport {
  added: number
  updated: number
  removed: number
  unchanged: number
  /** Songs kept but unavailable because their chosen folder is not there (an unplugged drive). */
  unavailable: number
  failed: Array<{ path: string; error: string }>
  /** Set when the folders hold more files than an import takes: nothing was changed. */
  capped?: string
  /** Chosen folders that were not there. */
  missing: string[]
}

export interface ImportProgress {
  found: number
  read: number
}

export interface ImportOptions {
  onProgress?: (progress: ImportProgress) => void
  /** Cancels the import between batches: what was committed stays, the rest is read next time. */
  signal?: AbortSignal
  maxFiles?: number
}

export interface KnownRow {
  path: string
  mtime_ms: number
  size: number
  song_id: number | null
  error: string | null
  content_key: string | null
}

/** A file read in this scan, waiting to be written with its batch. */
export interface ReadFile {
  file: FoundFile
  stored: string
  mtime: number
  mime: string
  prev: KnownRow | undefined
  info?: TrackInfo
  key?: string
  error?: string
}

/**
 * Files read before their rows are written in one transaction (and the event loop gets a turn): fewer
 * commits (each flushes the search index's pending terms into a new segment), each about 50 ms at most.
 */
const BATCH = 256

/** Files read at once: one's reading (the thread pool) overlaps another's parsing. */
const READERS = 8

/** Reads a batch's files, `READERS` at a time, each reader taking the next file as soon as it is done. */
async function readAll(batch: ReadFile[]): Promise<void> {
  let next = 0
  const reader = async () => {
    while (next < batch.length) await readOne(batch[next++])
  }
  await Promise.all(Array.from({ length: Math.min(READERS, batch.length) }, reader))
}

/**
 * Reads one file's tags, duration and identity through one open file and the blocks it reads (a small
 * file is one read); the audio is not read whole (its md5 is made when it is first asked for, store.ts).
 */
export async function readOne(r: ReadFile): Promise<void> {
  let file: CachedFile | undefined
  try {
    const lyricsFile = await sidecarLyrics(r.file.lrc)
    r.mtime = Math.floor(Math.max(r.file.stat.mtimeMs, lyricsFile?.mtime ?? 0))
    file = await CachedFile.open(r.file.path)
    const meta = await readMetadata(r.file.path, r.mime, file)
    const info = trackInfo(meta, r.file.stat.size, lyricsFile?.text)
    if (!info.durationMs || !Number.isFinite(info.durationMs) || info.durationMs <= 0) {
      r.error = 'no audio duration could be read (not a supported audio file?)'
      return
    }
    r.info = info
    r.key = await contentKey(r.file.path, r.mime, file)
  } catch (err) {
    r.error = (err as Error).message || 'unreadable file'
  } finally {
    await file?.release()
  }
}

/**
 * Imports the chosen music folders (see docs/data-source.md): tags, duration, bitrate, cover and lyrics of
 * every audio file, each found once (walk.ts). A file whose size and mtime (and its sidecar `.lrc`'s)
 * did not change is not read again; one that cannot be read is kept with its reason; a song keeps its id
 * when its file is retagged, renamed or moved (identity.ts). Files gone from a folder that is there are
 * removed; the songs of a chosen folder that is not there are marked unavailable and kept. More files
 * than `maxFiles` (200,000): nothing is changed and `capped` says why. Writes go in batches, so requests
 * are served while a large import runs.
 */
export async function importLibrary(
  db: DB,
  dirs: string | string[],
  _dataDir?: string,
  opts: ImportOptions = {},
): Promise<ImportReport> {
  const roots = (Array.isArray(dirs) ? dirs : [dirs]).map((d) => Buffer.from(resolve(d)))
  const report: ImportReport = {
    added: 0,
    updated: 0,
    removed: 0,
    unchanged: 0,
    unavailable: 0,
    failed: [],
    missing: [],
  }
  const max = opts.maxFiles ?? MAX_FILES
  const progress: ImportProgress = { found: 0, read: 0 }
  const walked = await walkFolders(roots, {
    max,
    signal: opts.signal,
    onFound: async (found) => {
      progress.found = found
      opts.onProgress?.({ ...progress })
      await new Promise((r) => setImmediate(r))
    },
  })
  if (walked.overCap) {
    report.capped =
      `The chosen folders hold more than ${max.toLocaleString('en')} audio files, more than the library ` +
      'takes: nothing was imported. Choose fewer or smaller folders.'
    return report
  }
  const missingRoots: RawPath[] = roots.filter((root) => walked.unreadable.some((u) => u.path.equals(root)))
  missingRoots.push(...emptiedRoots(db, roots))
  report.missing = missingRoots.map((root) => root.toString('utf8'))
  const search = new SearchIndexer(db)
  const known = new Map(
    (
      db
        .prepare('SELECT path, mtime_ms, size, song_id, error, content_key FROM library_files')
        .all() as unknown as KnownRow[]
    ).map((r) => [r.path, r]),
  )
  const seen = new Set<string>()
  for (const f of walked.files) seen.add(encodePath(f.path))
  const now = Date.now()
  const pictures = new Map<string, Picture>()

  const pending: ReadFile[] = []
  // Songs of files that did not change: available again (their folder may have come back), in one go.
  const unchangedSongs: number[] = []
  const unplayable = new Set(
    (
      statement(db, "SELECT id FROM songs WHERE source = 'library' AND playable = 0").all() as Array<{
        id: number
      }>
    ).map((r) => r.id),
  )
  for (const file of walked.files) {
    const stored = encodePath(file.path)
    const prev = known.get(stored)
    const r: ReadFile = { file, stored, mtime: 0, mime: audioType(file.path)!, prev }
    const lrcMtime = file.lrc
      ? await stat(file.lrc).then(
          (s) => s.mtimeMs,
          () => 0,
        )
      : 0
    const mtime = Math.floor(Math.max(file.stat.mtimeMs, lrcMtime))
    if (prev && prev.mtime_ms === mtime && prev.size === file.stat.size) {
      if (prev.error) report.failed.push({ path: displayPath(stored), error: prev.error })
      else {
        report.unchanged++
        if (prev.song_id !== null && unplayable.has(prev.song_id)) unchangedSongs.push(prev.song_id)
      }
      continue
    }
    pending.push(r)
  }
  transaction(db, () => {
    const back = statement(db, 'UPDATE songs SET playable = 1, reason = NULL WHERE id = ? AND playable = 0')
    for (const id of unchangedSongs) back.run(id)
  })
  progress.read = report.unchanged + report.failed.length
  opts.onProgress?.({ ...progress })

  for (let at = 0; at < pending.length; at += BATCH) {
    opts.signal?.throwIfAborted()
    const batch = pending.slice(at, at + BATCH)
    await readAll(batch)
    transaction(db, () => {
      for (const r of batch) writeOne(db, search, r, known, seen, pictures, report, now)
    })
    // Written: what was read of them (tags, a cover) is not kept to the end of the import.
    for (const r of batch) r.info = undefined
    progress.read += batch.length
    opts.onProgress?.({ ...progress })
    await new Promise((r) => setImmediate(r))
  }

  // Files no longer found: removed, unless their chosen folder is not there (then kept, unavailable).
  transaction(db, () => {
    for (const [path, row] of known) {
      if (seen.has(path)) continue
      const raw = decodePath(path)
      const rawBuf = typeof raw === 'string' ? Buffer.from(raw) : raw
      if (missingRoots.some((root) => isInside(rawBuf, root))) {
        if (row.song_id !== null) {
          statement(db, 'UPDATE songs SET playable = 0, reason = ? WHERE id = ?').run(
            'Its music folder is not there (a drive unplugged?): it comes back with the folder.',
            row.song_id,
          )
          report.unavailable++
        }
        continue
      }
      if (row.song_id !== null) {
        removeSong(db, search, row.song_id)
        report.removed++
      }
      statement(db, 'DELETE FROM library_files WHERE path = ?').run(path)
    }
  })
  // Also when no song changed: a cover picture may have been added beside the files.
  groupAlbums(db, search, pictures, now, walked.coverFolders)
  return report
}

export function writeOne(
  db: DB,
  search: SearchIndexer,
  r: ReadFile,
  known: Map<string, KnownRow>,
  seen: Set<string>,
  pictures: Map<string, Picture>,
  report: ImportReport,
  now: number,
): void {
  const { stored, prev } = r
  const size = r.file.stat.size
  if (!r.info || r.error) {
    const error = r.error ?? 'unreadable file'
    statement(
      db,
      `INSERT INTO library_files (path, mtime_ms, size, song_id, error) VALUES (?, ?, ?, NULL, ?)
       ON CONFLICT(path) DO UPDATE SET mtime_ms = excluded.mtime_ms, size = excluded.size, song_id = NULL,
         error = excluded.error`,
    ).run(stored, r.mtime, size, error)
    if (prev?.song_id) removeSong(db, search, prev.song_id)
    report.failed.push({ path: displayPath(stored), error })
    return
  }
  const info = r.info
  const path = displayPath(stored)
  const title = info.title ?? basename(path, extname(path))
  const folder = encodePath(r.file.path.subarray(0, r.file.path.lastIndexOf(0x2f)))
  // The same song under another path that is gone (renamed, moved): it keeps its id.
  let songId = prev?.song_id ?? null
  if (songId === null && r.key) {
    const moved = statement(
      db,
      'SELECT path, song_id FROM library_files WHERE content_key = ? AND song_id IS NOT NULL',
    ).all(r.key) as Array<{ path: string; song_id: number }>
    const from = moved.find((m) => !seen.has(m.path))
    if (from) {
      songId = from.song_id
      statement(db, 'DELETE FROM library_files WHERE path = ?').run(from.path)
      known.delete(from.path)
    }
  }
  const artistIds = info.artists.map((name) => {
    const row = statement(db, 'SELECT id FROM artists WHERE name = ? ORDER BY id LIMIT 1').get(name) as
      { id: number } | undefined
    if (row) return row.id
    const id = Number(
      statement(db, "INSERT INTO artists (name, source) VALUES (?, 'library')").run(name).lastInsertRowid,
    )
    search.add('artist', id, name)
    return id
  })
  if (info.album && info.picture && !pictures.has(pictureKey(folder, info.album))) {
    pictures.set(pictureKey(folder, info.album), info.picture)
  }
  const values = [
    title,
    info.disc,
    info.track,
    info.durationMs,
    info.lyrics ?? null,
    info.genre ?? null,
    info.replayGain ? JSON.stringify(info.replayGain) : null,
  ] as const
  if (songId !== null && statement(db, 'SELECT 1 FROM songs WHERE id = ?').get(songId)) {
    statement(
      db,
      `UPDATE songs SET name = ?, disc_no = ?, track_no = ?, duration_ms = ?, lyric_normal = ?, genre = ?,
         replay_gain = ?, playable = 1, reason = NULL WHERE id = ?`,
    ).run(...values, songId)
    statement(db, 'DELETE FROM song_artists WHERE song_id = ?').run(songId)
    statement(db, 'DELETE FROM song_files WHERE song_id = ?').run(songId)
    search.remove('song', songId)
    report.updated++
  } else {
    songId = Number(
      statement(
        db,
        `INSERT INTO songs (name, disc_no, track_no, duration_ms, lyric_normal, genre, replay_gain, source,
           created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'library', ?)`,
      ).run(...values, now).lastInsertRowid,
    )
    report.added++
  }
  artistIds.forEach((id, pos) =>
    statement(db, 'INSERT OR IGNORE INTO song_artists (song_id, artist_id, position) VALUES (?, ?, ?)').run(
      songId,
      id,
      pos,
    ),
  )
  statement(
    db,
    'INSERT INTO song_files (song_id, bitrate, size, md5, path, mime) VALUES (?, ?, ?, NULL, ?, ?)',
  ).run(songId, info.bitrate, size, stored, r.mime)
  search.add('song', songId, title, `${info.artists.join(' ')} ${info.album ?? ''} ${info.genre ?? ''}`)
  statement(
    db,
    `INSERT INTO library_files (path, mtime_ms, size, song_id, error, content_key, folder, album, album_artist,
       artist, compilation, year)
     VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(path) DO UPDATE SET mtime_ms = excluded.mtime_ms, size = excluded.size,
       song_id = excluded.song_id, error = NULL, content_key = excluded.content_key, folder = excluded.folder,
       album = excluded.album, album_artist = excluded.album_artist, artist = excluded.artist,
       compilation = excluded.compilation, year = excluded.year`,
  ).run(
    stored,
    r.mtime,
    size,
    songId,
    r.key ?? null,
    folder,
    info.album ?? null,
    info.albumArtist ?? null,
    primaryArtist(info.artists[0]),
    info.compilation ? 1 : 0,
    info.year ?? null,
  )
}

export function removeSong(db: DB, search: SearchIndexer, songId: number): void {
  search.remove('song', songId)
  statement(db, 'DELETE FROM songs WHERE id = ?').run(songId)
}
