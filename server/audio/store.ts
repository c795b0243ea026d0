import { createHash } from 'node:crypto'
import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { DB } from '../db/open'
import { DEMO_FORMATS } from './formats'
import { synthesizeWav } from './synth'

export interface MediaFile {
  path: string
  size: number
  md5: string
  mime: string
}

interface FileRow {
  size: number
  md5: string | null
  path: string | null
  mime: string
  seed: number
  tempo: number
  duration_ms: number
  source: string
}

/**
 * Resolves a (song id, bitrate) pair to bytes on disk. Demo audio is synthesised on first use and cached
 * under `<dataDir>/audio`; its md5 is stored in the database. Paths never come from the client.
 */
export class AudioStore {
  private readonly dir: string
  private readonly lookup
  private readonly saveMd5

  constructor(db: DB, dataDir: string) {
    this.dir = join(dataDir, 'audio')
    mkdirSync(this.dir, { recursive: true })
    this.lookup = db.prepare(
      `SELECT f.size, f.md5, f.path, f.mime, s.seed, s.tempo, s.duration_ms, s.source
       FROM song_files f JOIN songs s ON s.id = f.song_id WHERE f.song_id = ? AND f.bitrate = ? AND s.playable = 1`,
    )
    this.saveMd5 = db.prepare('UPDATE song_files SET md5 = ?, size = ? WHERE song_id = ? AND bitrate = ?')
  }

  /** Size and md5 without touching the disk when they are known already. */
  describe(songId: number, bitrate: number): MediaFile | null {
    const row = this.lookup.get(songId, bitrate) as FileRow | undefined
    if (!row) return null
    if (row.md5 && row.path) return { path: row.path, size: row.size, md5: row.md5, mime: row.mime }
    if (row.md5 && row.source === 'demo') {
      return { path: this.demoPath(songId, bitrate), size: row.size, md5: row.md5, mime: row.mime }
    }
    return this.ensure(songId, bitrate)
  }

  /** The file, generated if it is a demo song whose bytes are missing. */
  ensure(songId: number, bitrate: number): MediaFile | null {
    const row = this.lookup.get(songId, bitrate) as FileRow | undefined
    if (!row) return null
    if (row.source !== 'demo') {
      if (!row.path || !row.md5) return null
      try {
        const st = statSync(row.path)
        if (!st.isFile()) return null
        return { path: row.path, size: st.size, md5: row.md5, mime: row.mime }
      } catch {
        return null
      }
    }
    const format = DEMO_FORMATS[bitrate]
    if (!format) return null
    const path = this.demoPath(songId, bitrate)
    if (row.md5) {
      try {
        if (statSync(path).size === row.size) return { path, size: row.size, md5: row.md5, mime: row.mime }
      } catch {
        // missing: generate below
      }
    }
    const bytes = synthesizeWav(
      { seed: row.seed, tempo: row.tempo, durationMs: row.duration_ms },
      format.rate,
      format.channels,
    )
    const md5 = createHash('md5').update(bytes).digest('hex')
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`
    writeFileSync(tmp, bytes)
    renameSync(tmp, path)
    this.saveMd5.run(md5, bytes.length, songId, bitrate)
    return { path, size: bytes.length, md5, mime: row.mime }
  }

  private demoPath(songId: number, bitrate: number): string {
    return join(this.dir, `${songId}-${bitrate}.wav`)
  }
}
