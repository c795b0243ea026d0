import type { DatabaseSync, StatementSync } from 'node:sqlite'

/** The connection type and the two helpers every query module uses: the statement cache and transactions. */
export type DB = DatabaseSync
export type Statement = StatementSync

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
