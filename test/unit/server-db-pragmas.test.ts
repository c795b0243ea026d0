import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/db/open'

const dir = mkdtempSync(join(tmpdir(), 'cadence-db-pragmas-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/**
 * The data source's database keeps little of itself in the process: a small page cache and no memory
 * map of the file (mapped pages count in the process's memory), so 20,000 songs stay within 150 MB.
 */
describe('openDatabase', () => {
  const db = openDatabase(dir)
  afterAll(() => db.close())
  const pragma = (name: string) => Object.values(db.prepare(`PRAGMA ${name}`).get() as object)[0] as unknown

  it('maps none of the database file into memory', () => {
    expect(pragma('mmap_size')).toBe(0)
  })

  it('keeps a page cache of a few MB, not 64', () => {
    const size = pragma('cache_size') as number
    // Negative: KiB; a few MB at most.
    expect(size).toBeLessThan(0)
    expect(-size).toBeLessThanOrEqual(8192)
  })

  it('still writes through a WAL with foreign keys on', () => {
    expect(pragma('journal_mode')).toBe('wal')
    expect(pragma('foreign_keys')).toBe(1)
  })
})
