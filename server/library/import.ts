import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, extname, join, resolve, sep } from 'node:path'
import { parseFile } from 'music-metadata'
import type { DB } from '../db/sqlite'
import { transaction } from '../db/sqlite'
import { SearchIndexer } from '../db/search-index'
import { formatLrcTime } from '@shared/lyrics'

export interface ImportReport {
  added: number
  updated: number
  removed: number
  unchanged: number
  failed: Array<{ path: string; error: string }>
}

const AUDIO_TYPES: Record<string, string> = {
  '.mp3': 'audio/mpeg',
  '.flac': 'audio/flac',
  '.wav': 'audio/wav',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.webm': 'audio/webm',
}

const MAX_FILES = 200_000

async function walk(dir: string, out: string[]): Promise<void> {
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return
  }
  for (const e of entries) {
    if (out.length >= MAX_FILES) return
    if (e.name.startsWith('.')) continue
    const path = join(dir, e.name)
    if (e.isDirectory()) await walk(path, out)
    else if (e.isFile() && AUDIO_TYPES[extname(e.name).toLowerCase()]) out.push(path)
  }
}

function md5File(path: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const hash = createHash('md5')
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolvePromise(hash.digest('hex')))
  })
}

async function sidecarLyrics(path: string): Promise<{ text: string; mtime: number } | undefined> {
  const lrc = path.slice(0, path.length - extname(path).length) + '.lrc'
  try {
    const st = await stat(lrc)
    if (!st.isFile() || st.size > 1024 * 1024) return undefined
    return {
      text: (await readFile(lrc, 'utf8')).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'),
      mtime: st.mtimeMs,
    }
  } catch {
    return undefined
  }
}

interface TagLyrics {
  text?: string
  syncText?: Array<{ text: string; timestamp?: number }>
}

function tagLyrics(lyrics: unknown): string | undefined {
  if (!Array.isArray(lyrics)) return undefined
  for (const l of lyrics as Array<TagLyrics | string>) {
    if (typeof l === 'string') {
      if (/\[\d+:\d+/.test(l)) return l
      continue
    }
    if (l.syncText && l.syncText.length > 0) {
      return l.syncText
        .filter((s) => typeof s.timestamp === 'number')
        .map((s) => formatLrcTime(s.timestamp as number) + s.text)
        .join('\n')
    }
    if (l.text && /\[\d+:\d+/.test(l.text)) return l.text
  }
  return undefined
}

/**
 * Imports a music folder: tags, duration, bitrate and cover with music-metadata, lyrics from a sidecar
 * `.lrc` or the tags. Files whose mtime and size did not change are skipped; files that cannot be read
 * are reported and skipped; files that disappeared are removed from the catalogue.
 */
export async function importLibrary(db: DB, dir: string, _dataDir: string): Promise<ImportReport> {
  const root = resolve(dir)
  const report: ImportReport = { added: 0, updated: 0, removed: 0, unchanged: 0, failed: [] }
  const files: string[] = []
  await walk(root, files)
  const search = new SearchIndexer(db)
  const known = new Map(
    (
      db.prepare('SELECT path, mtime_ms, size, song_id, error FROM library_files').all() as Array<{
        path: string
        mtime_ms: number
        size: number
        song_id: number | null
        error: string | null
      }>
    ).map((r) => [r.path, r]),
  )
  const seen = new Set<string>()
  const now = Date.now()

  for (const path of files) {
    seen.add(path)
    try {
      const st = await stat(path)
      const lyricsFile = await sidecarLyrics(path)
      const mtime = Math.floor(Math.max(st.mtimeMs, lyricsFile?.mtime ?? 0))
      const prev = known.get(path)
      if (prev && prev.mtime_ms === mtime && prev.size === st.size) {
        if (prev.error) report.failed.push({ path, error: prev.error })
        else report.unchanged++
        continue
      }
      let meta
      let error: string | undefined
      try {
        meta = await parseFile(path, { duration: true, skipCovers: false })
        if (!meta.format.duration || !Number.isFinite(meta.format.duration) || meta.format.duration <= 0) {
          error = 'no audio duration could be read (not a supported audio file?)'
        }
      } catch (err) {
        error = (err as Error).message || 'unreadable file'
      }
      if (error || !meta) {
        db.prepare(
          `INSERT INTO library_files (path, mtime_ms, size, song_id, error) VALUES (?, ?, ?, NULL, ?)
           ON CONFLICT(path) DO UPDATE SET mtime_ms = excluded.mtime_ms, size = excluded.size, error = excluded.error`,
        ).run(path, mtime, st.size, error ?? 'unreadable file')
        if (prev?.song_id) removeSong(db, search, prev.song_id)
        report.failed.push({ path, error: error ?? 'unreadable file' })
        continue
      }
      const md5 = await md5File(path)
      const { common, format } = meta
      const durationMs = Math.round((format.duration ?? 0) * 1000)
      const bitrate = Math.round(format.bitrate ?? (st.size * 8) / (format.duration ?? 1))
      const title = common.title?.trim() || basename(path, extname(path))
      const artistNames = (
        common.artists && common.artists.length > 0 ? common.artists : [common.artist ?? '']
      )
        .map((a) => a.trim())
        .filter(Boolean)
      if (artistNames.length === 0) artistNames.push('Unknown Artist')
      const lyric = lyricsFile?.text || tagLyrics(common.lyrics)
      const mime = AUDIO_TYPES[extname(path).toLowerCase()]

      transaction(db, () => {
        const artistIds = artistNames.map((name) => {
          const row = db.prepare('SELECT id FROM artists WHERE name = ? ORDER BY id LIMIT 1').get(name) as
            { id: number } | undefined
          if (row) return row.id
          const id = Number(
            db.prepare("INSERT INTO artists (name, source) VALUES (?, 'library')").run(name).lastInsertRowid,
          )
          search.add('artist', id, name)
          return id
        })
        let albumId: number | null = null
        const albumName = common.album?.trim()
        if (albumName) {
          const albumArtist = common.albumartist?.trim()
          const albumArtistId = albumArtist
            ? ((
                db.prepare('SELECT id FROM artists WHERE name = ?').get(albumArtist) as
                  { id: number } | undefined
              )?.id ?? artistIds[0])
            : artistIds[0]
          const row = db
            .prepare("SELECT id FROM playlists WHERE kind = 'album' AND artist_id = ? AND name = ?")
            .get(albumArtistId, albumName) as { id: number } | undefined
          if (row) albumId = row.id
          else {
            const released = common.year ? Date.UTC(common.year, 0, 1) : null
            albumId = Number(
              db
                .prepare(
                  `INSERT INTO playlists (name, type, kind, artist_id, released_at, created_at, source)
                   VALUES (?, 'album', 'album', ?, ?, ?, 'library')`,
                )
                .run(albumName, albumArtistId, released, now).lastInsertRowid,
            )
            search.add('album', albumId, albumName, artistNames.join(' '))
          }
          const picture = common.picture?.[0]
          if (picture && picture.data.length < 10 * 1024 * 1024) {
            db.prepare('INSERT OR REPLACE INTO images (owner, mime, data) VALUES (?, ?, ?)').run(
              `album:${albumId}`,
              picture.format.startsWith('image/') ? picture.format : 'image/jpeg',
              Buffer.from(picture.data),
            )
          }
        }
        const values = [title, albumId, common.track?.no ?? 0, durationMs, lyric ?? null] as const
        let songId = prev?.song_id ?? null
        if (songId !== null && db.prepare('SELECT 1 FROM songs WHERE id = ?').get(songId)) {
          db.prepare(
            `UPDATE songs SET name = ?, album_id = ?, track_no = ?, duration_ms = ?, lyric_normal = ?, playable = 1,
               reason = NULL WHERE id = ?`,
          ).run(...values, songId)
          db.prepare('DELETE FROM song_artists WHERE song_id = ?').run(songId)
          db.prepare('DELETE FROM song_files WHERE song_id = ?').run(songId)
          search.remove('song', songId)
          report.updated++
        } else {
          songId = Number(
            db
              .prepare(
                `INSERT INTO songs (name, album_id, track_no, duration_ms, lyric_normal, source, created_at)
                 VALUES (?, ?, ?, ?, ?, 'library', ?)`,
              )
              .run(...values, now).lastInsertRowid,
          )
          report.added++
        }
        artistIds.forEach((id, pos) =>
          db
            .prepare('INSERT OR IGNORE INTO song_artists (song_id, artist_id, position) VALUES (?, ?, ?)')
            .run(songId, id, pos),
        )
        db.prepare(
          'INSERT INTO song_files (song_id, bitrate, size, md5, path, mime) VALUES (?, ?, ?, ?, ?, ?)',
        ).run(songId, bitrate, st.size, md5, path, mime)
        search.add('song', songId, title, `${artistNames.join(' ')} ${albumName ?? ''}`)
        db.prepare(
          `INSERT INTO library_files (path, mtime_ms, size, song_id, error) VALUES (?, ?, ?, ?, NULL)
           ON CONFLICT(path) DO UPDATE SET mtime_ms = excluded.mtime_ms, size = excluded.size,
             song_id = excluded.song_id, error = NULL`,
        ).run(path, mtime, st.size, songId)
      })
    } catch (err) {
      report.failed.push({ path, error: (err as Error).message || String(err) })
    }
  }

  // Files that disappeared from a folder we scanned.
  for (const [path, row] of known) {
    if (seen.has(path) || !path.startsWith(root + sep)) continue
    transaction(db, () => {
      if (row.song_id !== null) removeSong(db, search, row.song_id)
      db.prepare('DELETE FROM library_files WHERE path = ?').run(path)
    })
    if (row.song_id !== null) report.removed++
  }
  return report
}

function removeSong(db: DB, search: SearchIndexer, songId: number): void {
  search.remove('song', songId)
  db.prepare('DELETE FROM songs WHERE id = ?').run(songId)
}
