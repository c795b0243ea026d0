import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { DatabaseSync } from 'node:sqlite'
import type { StatementSync } from 'node:sqlite'
import { migrate } from './migrations'

/**
 * The server's database: Node's built-in SQLite (`node:sqlite`), so there is no native module to compile
 * or to rebuild for Electron's ABI. Node 24 and Electron 45 ship SQLite with FTS5 and the trigram tokenizer.
 */
export type DB = DatabaseSync
export type Statement = StatementSync

export function openDatabase(dataDir: string): DB {
  mkdirSync(dataDir, { recursive: true })
  assertFullTextSearch()
  const db = new DatabaseSync(join(dataDir, 'cadence.sqlite'), { timeout: 5000 })
  db.exec(`PRAGMA journal_mode = WAL;
    PRAGMA synchronous = NORMAL;
    PRAGMA foreign_keys = ON;
    PRAGMA cache_size = -64000;
    PRAGMA mmap_size = 268435456;`)
  migrate(db)
  return db
}

/**
 * Search needs FTS5 with the trigram tokenizer. Every supported runtime has it; one that does not is told so
 * in one line at start, instead of failing at the first search.
 */
export function assertFullTextSearch(): void {
  const probe = new DatabaseSync(':memory:')
  try {
    probe.exec("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'trigram')")
  } catch (error) {
    const version = (probe.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v
    throw new Error(
      `This runtime's SQLite ${version} (Node ${process.versions.node}) lacks FTS5 with the trigram tokenizer, ` +
        `which the data source's search needs; run it with Node 24 or newer. (${(error as Error).message})`,
      { cause: error },
    )
  } finally {
    probe.close()
  }
}

const statementCache = new WeakMap<DB, Map<string, Statement>>()

/**
 * The statement for `sql` on `db`, compiled on first use and kept for the connection's life. For SQL run
 * per request: `db.prepare` on every request compiles again each time (about 8x slower for a lookup by key)
 * and leaves a native statement behind until a GC finalises it. The SQL must be one of a fixed set of texts,
 * never built from request values.
 */
export function statement(db: DB, sql: string, { arrays = false } = {}): Statement {
  let byText = statementCache.get(db)
  if (!byText) statementCache.set(db, (byText = new Map()))
  // Rows as arrays of column values is a setting of the statement: its own entry.
  const key = `${arrays ? 'a' : 'o'}:${sql}`
  let st = byText.get(key)
  if (!st) {
    st = db.prepare(sql)
    if (arrays) st.setReturnArrays(true)
    byText.set(key, st)
  }
  return st
}

/**
 * Runs `fn` in one transaction: committed when it returns, rolled back when it throws. Nested calls become
 * savepoints, so a helper that needs a transaction can be called from inside another.
 */
let savepoints = 0
export function transaction<T>(db: DB, fn: () => T): T {
  const nested = db.isTransaction
  const name = `sp${++savepoints}`
  db.exec(nested ? `SAVEPOINT ${name}` : 'BEGIN')
  try {
    const result = fn()
    db.exec(nested ? `RELEASE ${name}` : 'COMMIT')
    return result
  } catch (error) {
    db.exec(nested ? `ROLLBACK TO ${name}; RELEASE ${name}` : 'ROLLBACK')
    throw error
  }
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
