import { SCHEMA_V1 } from './schema'
import { SHORT_TABLES, shortGrams } from './search-index'
import { transaction } from './sqlite'
import type { DB } from './sqlite'

function addShortGramIndex(db: DB): void {
  // Index of 1–2 character grams so short queries (夜, 星空, "ep") avoid a full scan.
  for (const [kind, table] of Object.entries(SHORT_TABLES)) {
    db.exec(
      `CREATE VIRTUAL TABLE ${table} USING fts5(grams, tokenize = 'unicode61', content = '', contentless_delete = 1)`,
    )
    const insert = db.prepare(`INSERT INTO ${table} (rowid, grams) VALUES (?, ?)`)
    const rows = db.prepare('SELECT id, key FROM search_keys WHERE kind = ?').all(kind) as Array<{
      id: number
      key: string
    }>
    for (const row of rows) {
      insert.run(row.id, shortGrams(row.key))
    }
  }
}

/**
 * Ordered schema migrations. `PRAGMA user_version` records how many have been applied; each runs in its own
 * transaction. Append new entries, never edit applied ones.
 */
export const migrations: ReadonlyArray<(db: DB) => void> = [
  // 1: the initial schema.
  (db) => db.exec(SCHEMA_V1),
  // 2: unigram/bigram index for 1–2 character queries.
  addShortGramIndex,
  // 3: the owner's remembered phones (hashes of the phone page's cookie), see server/owner.ts.
  (db) =>
    db.exec(`CREATE TABLE owner_devices (
      hash TEXT PRIMARY KEY,
      created_at INTEGER NOT NULL,
      last_used_at INTEGER NOT NULL
    )`),
  // 4: the music folders' index (server/library/): disc numbers, each file's identity and album tags.
  (db) =>
    db.exec(`ALTER TABLE songs ADD COLUMN disc_no INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX songs_album_disc ON songs(album_id, disc_no, track_no);
      ALTER TABLE library_files ADD COLUMN content_key TEXT;
      ALTER TABLE library_files ADD COLUMN folder TEXT;
      ALTER TABLE library_files ADD COLUMN album TEXT;
      ALTER TABLE library_files ADD COLUMN album_artist TEXT;
      ALTER TABLE library_files ADD COLUMN artist TEXT;
      ALTER TABLE library_files ADD COLUMN compilation INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE library_files ADD COLUMN year INTEGER;
      CREATE INDEX library_files_content ON library_files(content_key);`),
  // 5: a music folder song's genre and ReplayGain tags (JSON), see server/library/tags.ts.
  (db) =>
    db.exec(`ALTER TABLE songs ADD COLUMN genre TEXT;
      ALTER TABLE songs ADD COLUMN replay_gain TEXT;`),
]

export function migrate(db: DB): void {
  const current = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version
  if (current > migrations.length) {
    throw new Error(
      `The database schema (version ${current}) is newer than this server understands (${migrations.length}).`,
    )
  }
  for (let v = current; v < migrations.length; v++) {
    transaction(db, () => {
      migrations[v](db)
      db.exec(`PRAGMA user_version = ${v + 1}`)
    })
  }
}
