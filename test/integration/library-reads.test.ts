import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/db/open'
import { CachedFile } from '../../server/library/cached-file'
import { contentKey } from '../../server/library/identity'
import { importLibrary } from '../../server/library/import'
import { readMetadata } from '../../server/library/tags'
import { audioType } from '../../server/library/walk'
import { taggedWav } from '../bench/library'
import { makeTrack } from '../support/library-files'

/** How the import reads files (issue 36's import speed): bounded reads, one open file, batches. */
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

function scratch() {
  const root = mkdtempSync(join(tmpdir(), 'cadence-library-reads-'))
  dirs.push(root)
  const music = join(root, 'music')
  mkdirSync(music)
  return { music, dataDir: join(root, 'data') }
}

/** Bytes this process has read through read syscalls so far (Linux). */
const bytesRead = () => Number(/^rchar:\s+(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'))![1])

describe('library import reads', () => {
  it.runIf(existsSync('/proc/self/io'))(
    'reads the head and tail of long files, not their audio whole',
    async () => {
      const { music, dataDir } = scratch()
      const files = ['a.wav', 'b.wav', 'c.flac', 'd.mp3', 'e.m4a']
      files.forEach((name, i) =>
        makeTrack(join(music, name), { title: `Long ${i}`, artist: 'Reader', album: 'Long' }, i + 1, 90),
      )
      const total = files.reduce((n, name) => n + statSync(join(music, name)).size, 0)
      expect(total).toBeGreaterThan(5_000_000)
      const db = openDatabase(dataDir)
      try {
        const before = bytesRead()
        const report = await importLibrary(db, music, dataDir)
        const read = bytesRead() - before
        expect(report.added).toBe(files.length)
        expect(report.failed).toEqual([])
        // A few 64 KB blocks per file (tags at each end, the identity's two windows), the database's pages.
        expect(read).toBeLessThan(total / 4)
      } finally {
        db.close()
      }
    },
    120_000,
  )

  it('reads the same tags, duration and identity through one open file as from the path', async () => {
    const { music } = scratch()
    // Long enough that the audio spans more blocks than a file keeps (the long-read path).
    const names = ['one.mp3', 'two.flac', 'three.wav', 'four.m4a', 'five.opus']
    names.forEach((name, i) =>
      makeTrack(join(music, name), { title: `Same ${i}`, artist: 'Both Ways', track: i + 1 }, i + 3, 20),
    )
    for (const name of names) {
      const path = Buffer.from(join(music, name))
      const mime = audioType(path)!
      const file = await CachedFile.open(path)
      try {
        const viaFile = await readMetadata(path, mime, file)
        const key = await contentKey(path, mime, file)
        const direct = await readMetadata(path, mime)
        expect(key).toBe(await contentKey(path, mime))
        expect(viaFile.common.title).toBe(direct.common.title)
        expect(viaFile.common.artists).toEqual(direct.common.artists)
        expect(viaFile.common.track).toEqual(direct.common.track)
        expect(viaFile.format.duration).toBe(direct.format.duration)
        expect(viaFile.format.bitrate).toBe(direct.format.bitrate)
      } finally {
        await file.release()
      }
    }
  }, 120_000)

  it('writes every file of many batches under its own tags, albums in track order', async () => {
    const { music, dataDir } = scratch()
    const albums = 30
    for (let a = 0; a < albums; a++) {
      const dir = join(music, `Album ${a}`)
      mkdirSync(dir)
      for (let t = 1; t <= 20; t++) {
        const n = a * 20 + t
        writeFileSync(
          join(dir, `${String(t).padStart(2, '0')}.wav`),
          taggedWav({ INAM: `Song ${n}`, IART: `Artist ${a % 7}`, IPRD: `Album ${a}`, ITRK: String(t) }, n),
        )
      }
    }
    const db = openDatabase(dataDir)
    try {
      const report = await importLibrary(db, music, dataDir)
      expect(report.added).toBe(albums * 20)
      const rows = db
        .prepare(
          `SELECT f.path, s.name, s.track_no, p.name AS album FROM library_files f
           JOIN songs s ON s.id = f.song_id JOIN playlists p ON p.id = s.album_id`,
        )
        .all() as Array<{ path: string; name: string; track_no: number; album: string }>
      expect(rows).toHaveLength(albums * 20)
      for (const r of rows) {
        const m = /Album (\d+)\/(\d+)\.wav$/.exec(r.path)!
        expect(r.name).toBe(`Song ${Number(m[1]) * 20 + Number(m[2])}`)
        expect(r.album).toBe(`Album ${m[1]}`)
        expect(r.track_no).toBe(Number(m[2]))
      }
      const album = db
        .prepare(
          `SELECT s.name FROM songs s JOIN playlists p ON p.id = s.album_id WHERE p.name = 'Album 17'
           ORDER BY s.disc_no, s.track_no`,
        )
        .all() as Array<{ name: string }>
      expect(album.map((s) => s.name)).toEqual(Array.from({ length: 20 }, (_, i) => `Song ${340 + i + 1}`))
      const again = await importLibrary(db, music, dataDir)
      expect(again).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: albums * 20 })
    } finally {
      db.close()
    }
  }, 120_000)
})
