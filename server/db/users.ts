import type { DB } from './sqlite'

/** Creates a user together with the user's "Liked songs" playlist. */
export function createUser(
  db: DB,
  name: string,
  opts: { owner?: boolean; description?: string; now?: number } = {},
) {
  const now = opts.now ?? Date.now()
  const id = Number(
    db
      .prepare('INSERT INTO users (name, description, is_owner, created_at) VALUES (?, ?, ?, ?)')
      .run(name, opts.description ?? null, opts.owner ? 1 : 0, now).lastInsertRowid,
  )
  db.prepare(
    `INSERT INTO playlists (name, type, kind, description, creator_id, created_at, source)
     VALUES ('Liked songs', 'normal', 'liked', ?, ?, ?, 'system')`,
  ).run(`Songs ${name} liked.`, id, now)
  return id
}

/** The server's owner, created on first start; the phone page authorises sign-ins as this user. */
export function ensureOwner(db: DB, wantedName: string | undefined): { id: number; name: string } {
  const row = db.prepare('SELECT id, name FROM users WHERE is_owner = 1 ORDER BY id LIMIT 1').get() as
    { id: number; name: string } | undefined
  if (row) {
    if (wantedName && row.name !== wantedName) {
      db.prepare('UPDATE users SET name = ? WHERE id = ?').run(wantedName, row.id)
    }
    return { id: row.id, name: wantedName || row.name }
  }
  const name = wantedName || 'Owner'
  return {
    id: createUser(db, name, { owner: true, description: 'The owner of this Cadence server.' }),
    name,
  }
}

export function likedPlaylistId(db: DB, userId: number): number {
  const row = db.prepare("SELECT id FROM playlists WHERE creator_id = ? AND kind = 'liked'").get(userId) as
    { id: number } | undefined
  if (row) return row.id
  const now = Date.now()
  return Number(
    db
      .prepare(
        `INSERT INTO playlists (name, type, kind, description, creator_id, created_at, source)
         VALUES ('Liked songs', 'normal', 'liked', 'Songs you liked.', ?, ?, 'system')`,
      )
      .run(userId, now).lastInsertRowid,
  )
}
