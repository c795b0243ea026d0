import type { Stats } from 'node:fs'
import { readdir, realpath, stat } from 'node:fs/promises'
import { extname, sep } from 'node:path'
import type { DB } from '../db/sqlite'
import { statement, transaction } from '../db/sqlite'
import { SearchIndexer } from '../db/search-index'
import { groupAlbums, type Picture } from './albums'
import { readOne, removeSong, writeOne, type ImportReport, type KnownRow, type ReadFile } from './import'
import { decodePath, encodePath, isInside, joinRaw, type RawPath } from './paths'
import { COVER_NAME, audioType, walkFolders, type FoundFile } from './walk'

export interface ChangeReport extends ImportReport {
  /** Files and folders looked at (`stat`) to apply the changes: the changed paths and what a new folder holds. */
  statted: number
}

const SEP = sep.charCodeAt(0)

const parentOf = (p: RawPath) => p.subarray(0, p.lastIndexOf(SEP))
const nameOf = (p: RawPath) => p.subarray(p.lastIndexOf(SEP) + 1).toString('latin1')

/** A path with a hidden part below its chosen folder (`.name`): the walk skips those, so do changes. */
function hidden(path: RawPath, root: RawPath): boolean {
  const rel = path.subarray(root[root.length - 1] === SEP ? root.length : root.length + 1)
  return rel[0] === 0x2e || rel.includes(Buffer.from([SEP, 0x2e]))
}

const KNOWN_COLUMNS = 'path, mtime_ms, size, song_id, error, content_key'

/**
 * The rows of `path` and of every file below it (a folder), by the raw bytes of their paths: text paths by
 * their index, `bytes:` paths (names that are not UTF-8, `byteRows`) by their decoded bytes.
 */
function rowsUnder(db: DB, path: RawPath, byteRows: () => KnownRow[]): KnownRow[] {
  const stored = encodePath(path)
  const text = statement(
    db,
    `SELECT ${KNOWN_COLUMNS} FROM library_files WHERE path = ? OR (path >= ? AND path < ?)`,
  ).all(stored, stored + sep, stored + String.fromCharCode(SEP + 1)) as unknown as KnownRow[]
  const bytes = byteRows().filter((row) => {
    const raw = decodePath(row.path)
    return isInside(typeof raw === 'string' ? Buffer.from(raw) : raw, path)
  })
  return [...text, ...bytes]
}

const statOf = (p: RawPath): Promise<Stats | undefined> => stat(p).catch(() => undefined)

/**
 * Applies the paths a folder watch reported (watch.ts) with the full import's rules (import.ts), reading
 * only what they name: a file added or changed is read and written (skipped when its size and mtime, and
 * its sidecar `.lrc`'s, did not change); a path that is gone removes its file's song, or every song below
 * it (a folder); a folder that appeared is walked. A file whose audio matches a song whose file is gone
 * (a rename or move, the removal in the same batch) takes over that song's id (identity.ts). A `.lrc`
 * re-reads its audio file; a cover picture is offered to its folder's albums. The albums are grouped
 * again (albums.ts), only the titles the changes touched. Every path must be inside one of `roots` (the chosen folders, resolved) and not be
 * one of them: a chosen folder that changes itself is the full import's to handle (it marks it missing).
 */
export async function applyChanges(db: DB, roots: RawPath[], paths: RawPath[]): Promise<ChangeReport> {
  const report: ChangeReport = {
    added: 0,
    updated: 0,
    removed: 0,
    unchanged: 0,
    unavailable: 0,
    failed: [],
    missing: [],
    statted: 0,
  }
  let bytes: KnownRow[] | undefined
  const byteRows = () =>
    (bytes ??= statement(
      db,
      `SELECT ${KNOWN_COLUMNS} FROM library_files WHERE substr(path, 1, 6) = 'bytes:'`,
    ).all() as unknown as KnownRow[])
  const realRoots: RawPath[] = []
  for (const root of roots) realRoots.push(await realpath(root, { encoding: 'buffer' }).catch(() => root))
  const files = new Map<string, FoundFile>()
  const gone = new Map<string, KnownRow>()
  /** Folders of changed files, listed for their `.lrc` and cover pictures; with the `.lrc` stems changed. */
  const folders = new Map<string, { dir: RawPath; root: RawPath; lyrics: Set<string> }>()
  const coverFolders = new Set<string>()
  const folderOf = (p: RawPath, root: RawPath) => {
    const dir = parentOf(p)
    const key = encodePath(dir)
    let f = folders.get(key)
    if (!f) folders.set(key, (f = { dir, root, lyrics: new Set() }))
    return f
  }

  for (const path of paths) {
    const root = roots.find((r) => isInside(path, r) && !path.equals(r))
    if (!root || hidden(path, root)) continue
    const name = nameOf(path)
    const lrc = name.toLowerCase().endsWith('.lrc')
    const st = await statOf(path)
    report.statted++
    if (!st) {
      for (const row of rowsUnder(db, path, byteRows)) gone.set(row.path, row)
      if (lrc) folderOf(path, root).lyrics.add(name.slice(0, -4))
      continue
    }
    // A link is followed only into the chosen folders, as the walk does.
    const real = await realpath(path, { encoding: 'buffer' }).catch(() => undefined)
    if (!real || !realRoots.some((r) => isInside(real, r))) continue
    if (st.isDirectory()) {
      const walked = await walkFolders([path], { within: roots })
      report.statted += walked.files.length
      for (const f of walked.files) files.set(encodePath(f.path), { ...f, root })
      for (const c of walked.coverFolders) coverFolders.add(c)
      for (const row of rowsUnder(db, path, byteRows)) if (!files.has(row.path)) gone.set(row.path, row)
    } else if (st.isFile()) {
      const folder = folderOf(path, root)
      if (audioType(path)) files.set(encodePath(path), { path, root, stat: st })
      else if (lrc) folder.lyrics.add(name.slice(0, -4))
    }
  }

  // Each changed file's folder: its `.lrc` files (the walk's rule) and its cover picture.
  for (const [key, folder] of folders) {
    const names = await readdir(folder.dir, { encoding: 'buffer' }).catch(() => [] as Buffer[])
    const stems = new Set<string>()
    for (const n of names) {
      const name = n.toString('latin1')
      if (name.toLowerCase().endsWith('.lrc')) stems.add(name.slice(0, -4))
      if (COVER_NAME.test(name)) coverFolders.add(key)
      const stem = name.slice(0, name.length - extname(name).length)
      // An audio file whose `.lrc` changed: read again.
      const path = joinRaw(folder.dir, n)
      if (folder.lyrics.has(stem) && audioType(path) && !files.has(encodePath(path)) && n[0] !== 0x2e) {
        const st = await statOf(path)
        report.statted++
        if (st?.isFile()) files.set(encodePath(path), { path, root: folder.root, stat: st })
      }
    }
    for (const f of files.values()) {
      if (!parentOf(f.path).equals(folder.dir) || f.lrc) continue
      const name = nameOf(f.path)
      const stem = name.slice(0, name.length - extname(name).length)
      if (stems.has(stem)) f.lrc = joinRaw(folder.dir, Buffer.from(stem + '.lrc', 'latin1'))
    }
  }

  const known = new Map<string, KnownRow>(gone)
  const pending: ReadFile[] = []
  const back = statement(db, 'UPDATE songs SET playable = 1, reason = NULL WHERE id = ? AND playable = 0')
  for (const [stored, file] of files) {
    gone.delete(stored)
    const prev = statement(db, `SELECT ${KNOWN_COLUMNS} FROM library_files WHERE path = ?`).get(stored) as
      KnownRow | undefined
    if (prev) known.set(stored, prev)
    const lrcMtime = file.lrc ? ((await statOf(file.lrc))?.mtimeMs ?? 0) : 0
    const mtime = Math.floor(Math.max(file.stat.mtimeMs, lrcMtime))
    if (prev && prev.mtime_ms === mtime && prev.size === file.stat.size) {
      report.unchanged++
      if (prev.song_id !== null) back.run(prev.song_id)
      continue
    }
    pending.push({ file, stored, mtime: 0, mime: audioType(file.path)!, prev })
  }
  for (let i = 0; i < pending.length; i += 4) await Promise.all(pending.slice(i, i + 4).map(readOne))

  // The files whose song a read file may take over are those that are gone; any other with the same audio
  // is there still (a copy keeps its own song; the same file reached twice, by inode, is taken once).
  const seen = new Set<string>(pending.map((r) => r.stored))
  const twice = new Set<ReadFile>()
  for (const r of pending) {
    if (!r.key) continue
    const same = statement(
      db,
      'SELECT path FROM library_files WHERE content_key = ? AND song_id IS NOT NULL AND path != ?',
    ).all(r.key, r.stored) as Array<{ path: string }>
    for (const { path } of same) {
      if (gone.has(path)) continue
      const raw = decodePath(path)
      const st = await statOf(typeof raw === 'string' ? Buffer.from(raw) : raw)
      report.statted++
      if (!st) continue
      seen.add(path)
      if (st.dev === r.file.stat.dev && st.ino === r.file.stat.ino) twice.add(r)
    }
  }

  // The albums to group again: those of the touched files before and after, and those of a folder whose
  // cover picture changed.
  const touched = [...pending.map((r) => r.stored), ...gone.keys()]
  const titles = new Set<string>()
  const songs = new Set<number>()
  const noteAlbums = () => {
    for (const path of touched) {
      const row = statement(db, 'SELECT song_id, album FROM library_files WHERE path = ?').get(path) as
        { song_id: number | null; album: string | null } | undefined
      if (row?.album) titles.add(row.album)
      if (row?.song_id) songs.add(row.song_id)
    }
  }
  noteAlbums()
  for (const folder of coverFolders) {
    for (const { album } of statement(
      db,
      'SELECT DISTINCT album FROM library_files WHERE folder = ? AND album IS NOT NULL',
    ).all(folder) as Array<{ album: string }>) {
      titles.add(album)
    }
  }

  const search = new SearchIndexer(db)
  const pictures = new Map<string, Picture>()
  const now = Date.now()
  transaction(db, () => {
    for (const r of pending) if (!twice.has(r)) writeOne(db, search, r, known, seen, pictures, report, now)
    for (const path of gone.keys()) {
      // Taken over by a moved file: its row is already gone.
      const row = statement(db, 'SELECT song_id FROM library_files WHERE path = ?').get(path) as
        { song_id: number | null } | undefined
      if (!row) continue
      if (row.song_id !== null) {
        removeSong(db, search, row.song_id)
        report.removed++
      }
      statement(db, 'DELETE FROM library_files WHERE path = ?').run(path)
    }
  })
  noteAlbums()
  if (titles.size > 0 || songs.size > 0) {
    groupAlbums(db, search, pictures, now, coverFolders, { titles, songs })
  }
  return report
}
