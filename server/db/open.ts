import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrate } from './migrations'
import type { DB } from './sqlite'

/**
 * The server's database: Node's built-in SQLite (`node:sqlite`), so there is no native module to compile
 * or to rebuild for Electron's ABI. Node 24 and Electron 45 ship SQLite with FTS5 and the trigram tokenizer.
 */

export function openDatabase(dataDir: string): DB {
  mkdirSync(dataDir, { recursive: true })
  assertFullTextSearch()
  const db = new DatabaseSync(join(dataDir, 'cadence.sqlite'), { timeout: 5000 })
  // Little of the database is kept in the process: a 2 MB page cache (SQLite's default) and no memory
  // map. The system's file cache keeps the pages anyway; a mapped page counts in the process's memory,
  // and a page cache once filled is not given back. With 64 MB and a 256 MB map, 20,000 songs held
  // 30 MB more; search, an artist's page and the rescan measured no slower (docs/data-source.md).
  db.exec(`PRAGMA journal_mode = WAL;
    PRAGMA synchronous = NORMAL;
    PRAGMA foreign_keys = ON;
    PRAGMA cache_size = -2000;
    PRAGMA mmap_size = 0;`)
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
