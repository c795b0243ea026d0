import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import Database from 'better-sqlite3'
import { migrate } from './migrations'

export type DB = Database.Database

export function openDatabase(dataDir: string): DB {
  mkdirSync(dataDir, { recursive: true })
  const db = new Database(join(dataDir, 'cadence.sqlite'))
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  db.pragma('cache_size = -64000')
  db.pragma('mmap_size = 268435456')
  migrate(db)
  return db
}

/** A per-data-dir secret used to sign media URLs. Created once, kept in the data dir with mode 0600. */
export function loadSecret(dataDir: string): Buffer {
  const file = join(dataDir, 'secret.key')
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url')
    if (key.length >= 32) return key
  }
  const key = randomBytes(32)
  writeFileSync(file, key.toString('base64url') + '\n', { mode: 0o600 })
  return key
}

export function getMeta(db: DB, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined
  return row?.value
}

export function setMeta(db: DB, key: string, value: string): void {
  db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  ).run(key, value)
}
