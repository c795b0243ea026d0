import { statement } from '../db/sqlite'
import type { DB, Statement } from '../db/sqlite'

const CACHE_MS = 30_000

/**
 * What every catalogue module shares: the database, prepared statements compiled once per SQL text, and a
 * 30-second cache for computed rankings (charts, recommendations).
 */
export class CatalogStore {
  private readonly cache = new Map<string, { at: number; value: unknown }>()

  constructor(
    readonly db: DB,
    private readonly now: () => number = Date.now,
  ) {}

  /** A statement answering rows as objects, compiled on first use (`statement` in db/sqlite.ts). */
  prep(sql: string): Statement {
    return statement(this.db, sql)
  }

  /** A statement answering rows as arrays of column values, in column order. */
  prepArrays(sql: string): Statement {
    return statement(this.db, sql, { arrays: true })
  }

  cached<T>(key: string, compute: () => T): T {
    const hit = this.cache.get(key)
    const now = this.now()
    if (hit && now - hit.at < CACHE_MS) return hit.value as T
    const value = compute()
    this.cache.set(key, { at: now, value })
    return value
  }

  /** Forget computed charts and recommendations (after likes change them). */
  invalidate(): void {
    this.cache.clear()
  }

  /** The time the store reads (ms since epoch); injected so daily rotations can be tested. */
  time(): number {
    return this.now()
  }
}

/** Ids from rows of `{ id }`. */
export function ids(rows: unknown[]): number[] {
  return (rows as Array<{ id: number }>).map((r) => r.id)
}
