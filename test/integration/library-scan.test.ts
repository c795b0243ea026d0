import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/db/open'
import { importLibrary } from '../../server/library/import'
import { makeTrack } from '../support/library-files'

/** Rescans, the file cap, bad files and a folder that goes away (issue 36). */
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

function scratch() {
  const root = mkdtempSync(join(tmpdir(), 'cadence-library-scan-'))
  dirs.push(root)
  const music = join(root, 'music')
  mkdirSync(music)
  return { root, music, dataDir: join(root, 'data') }
}

describe('library scans', () => {
  it('stops at the file cap with a clear message, importing nothing', async () => {
    const { music, dataDir } = scratch()
    for (let i = 1; i <= 3; i++) makeTrack(join(music, `${i}.wav`), { title: `Capped ${i}` }, i)
    const db = openDatabase(dataDir)
    try {
      const report = await importLibrary(db, music, dataDir, { maxFiles: 2 })
      expect(report.capped).toMatch(/more than 2 audio files.*nothing was imported/)
      expect(report.added).toBe(0)
      expect(db.prepare("SELECT count(*) AS n FROM songs WHERE source = 'library'").get()).toEqual({ n: 0 })
      const full = await importLibrary(db, music, dataDir, { maxFiles: 3 })
      expect(full.capped).toBeUndefined()
      expect(full.added).toBe(3)
    } finally {
      db.close()
    }
  })

  it('lists truncated and corrupt files with their reason, imports the rest, and skips them unread later', async () => {
    const { music, dataDir } = scratch()
    makeTrack(join(music, 'good.flac'), { title: 'Good One' }, 1)
    makeTrack(join(music, 'whole.flac'), { title: 'Cut Short' }, 2)
    writeFileSync(join(music, 'cut.flac'), readFileSync(join(music, 'whole.flac')).subarray(0, 30))
    rmSync(join(music, 'whole.flac'))
    writeFileSync(join(music, 'noise.m4a'), Buffer.alloc(4000, 7))
    const db = openDatabase(dataDir)
    const progress: Array<{ found: number; read: number }> = []
    try {
      const report = await importLibrary(db, music, dataDir, { onProgress: (p) => progress.push(p) })
      expect(report.added).toBe(1)
      expect(report.failed.map((f) => f.path).sort()).toEqual([
        join(music, 'cut.flac'),
        join(music, 'noise.m4a'),
      ])
      for (const f of report.failed) expect(f.error.length).toBeGreaterThan(5)
      expect(progress.at(-1)).toEqual({ found: 3, read: 3 })

      const again = await importLibrary(db, music, dataDir)
      expect(again).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: 1 })
      expect(again.failed.map((f) => f.error)).toEqual(report.failed.map((f) => f.error))
    } finally {
      db.close()
    }
  })

  it('keeps the songs of a chosen folder that goes away, unavailable, and brings them back with it', async () => {
    const { root, music, dataDir } = scratch()
    makeTrack(join(music, 'stay.mp3'), { title: 'On The Drive' }, 1)
    const db = openDatabase(dataDir)
    const rows = () => db.prepare("SELECT id, playable FROM songs WHERE source = 'library'").all()
    try {
      await importLibrary(db, music, dataDir)
      const [before] = rows() as Array<{ id: number }>
      renameSync(music, join(root, 'unplugged'))
      const gone = await importLibrary(db, music, dataDir)
      expect(gone).toMatchObject({ removed: 0, unavailable: 1 })
      expect(rows()).toEqual([{ id: before.id, playable: 0 }])
      renameSync(join(root, 'unplugged'), music)
      const back = await importLibrary(db, music, dataDir)
      expect(back).toMatchObject({ removed: 0, added: 0, unchanged: 1 })
      expect(rows()).toEqual([{ id: before.id, playable: 1 }])
    } finally {
      db.close()
    }
  })
})
