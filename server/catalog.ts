import type { DB, Statement } from './db/open'
import { transaction } from './db/open'
import { likedPlaylistId } from './db/users'
import { ftsTable, shortTable, type SearchKind } from './db/search-index'
import { ApiError, loginRequired, notFound } from './envelope'
import type { UserRow } from './auth'

/** The statement answers rows as arrays of column values, in column order. */
function arrays(statement: Statement): Statement {
  statement.setReturnArrays(true)
  return statement
}

export interface UserJson {
  id: number
  name: string
  avatar: string
  description?: string
}
export interface ArtistJson {
  id: number
  name: string
  avatar: string
}
export interface AlbumJson {
  id: number
  name: string
  cover: string
  artists?: ArtistJson[]
  size?: number
}
export interface PrivilegeJson {
  playable: boolean
  reason?: string
  bitrates: number[]
  maxBitrate: number
}
export interface SongJson {
  id: number
  name: string
  tns?: string[]
  artists: ArtistJson[]
  album?: AlbumJson
  duration: number
  privilege: PrivilegeJson
  meta?: Record<string, unknown>
}
export interface PlaylistJson {
  id: number
  name: string
  cover: string
  size: number
  type: 'normal' | 'album' | 'dj' | 'artist'
  description?: string
  creator?: UserJson
  songs?: SongJson[]
  meta?: Record<string, unknown>
}

interface SongRow {
  id: number
  name: string
  tns: string | null
  duration_ms: number
  playable: number
  reason: string | null
  album_id: number | null
  album_name: string | null
  artists: string | Array<[number, string]>
  bitrates: string | number[] | null
}

interface PlaylistRow {
  id: number
  name: string
  type: PlaylistJson['type']
  kind: 'user' | 'editorial' | 'chart' | 'album' | 'liked'
  description: string | null
  creator_id: number | null
  creator_name: string | null
  artist_id: number | null
  artist_name: string | null
  rule: string | null
  released_at: number | null
  created_at: number
}

const PLAYLIST_COLUMNS = `p.id, p.name, p.type, p.kind, p.description, p.creator_id, u.name AS creator_name,
  p.artist_id, ar.name AS artist_name, p.rule, p.released_at, p.created_at`
const PLAYLIST_FROM = `playlists p LEFT JOIN users u ON u.id = p.creator_id LEFT JOIN artists ar ON ar.id = p.artist_id`

/** Longest song list any single response carries (a playlist's detail returns all songs up to this). */
export const MAX_DETAIL_SONGS = 100_000
const CACHE_MS = 30_000
const SCORE = (s: { play_count: number; like_count: number }) => s.play_count + s.like_count * 20

/** Reads the catalogue and shapes it as the spec's JSON. URLs are absolute, built from `base`. */
export class Catalog {
  private readonly stmt
  private readonly cache = new Map<string, { at: number; value: unknown }>()

  constructor(private readonly db: DB) {
    const songSelect = `SELECT s.id, s.name, s.tns, s.duration_ms, s.playable, s.reason, s.album_id, al.name AS album_name,
           (SELECT json_group_array(json_array(x.id, x.name)) FROM
             (SELECT a.id, a.name FROM song_artists sa JOIN artists a ON a.id = sa.artist_id
              WHERE sa.song_id = s.id ORDER BY sa.position) x) AS artists,
           (SELECT group_concat(bitrate) FROM (SELECT bitrate FROM song_files f WHERE f.song_id = s.id ORDER BY bitrate))
             AS bitrates
         FROM songs s LEFT JOIN playlists al ON al.id = s.album_id`
    this.stmt = {
      songs: db.prepare(`${songSelect} WHERE s.id IN (SELECT value FROM json_each(?))`),
      songOne: db.prepare(
        `SELECT s.id, s.name, s.tns, s.duration_ms, s.playable, s.reason, s.album_id, al.name AS album_name,
           s.lyric_normal, s.lyric_translation, s.lyric_transliteration, s.lyric_wordforword
         FROM songs s LEFT JOIN playlists al ON al.id = s.album_id WHERE s.id = ?`,
      ),
      songArtists: arrays(
        db.prepare(
          'SELECT a.id, a.name FROM song_artists sa JOIN artists a ON a.id = sa.artist_id WHERE sa.song_id = ? ORDER BY sa.position',
        ),
      ),
      songBitrates: db.prepare('SELECT bitrate FROM song_files WHERE song_id = ? ORDER BY bitrate'),
      playlist: db.prepare(`SELECT ${PLAYLIST_COLUMNS} FROM ${PLAYLIST_FROM} WHERE p.id = ?`),
      playlistsByIds: db.prepare(
        `SELECT ${PLAYLIST_COLUMNS} FROM ${PLAYLIST_FROM} WHERE p.id IN (SELECT value FROM json_each(?))`,
      ),
      playlistSize: db.prepare('SELECT COUNT(*) AS n FROM playlist_songs WHERE playlist_id = ?'),
      albumSize: db.prepare('SELECT COUNT(*) AS n FROM songs WHERE album_id = ?'),
      likedSize: db.prepare('SELECT COUNT(*) AS n FROM likes WHERE user_id = ?'),
      playlistSongIds: db.prepare(
        'SELECT song_id AS id FROM playlist_songs WHERE playlist_id = ? ORDER BY position LIMIT ? OFFSET ?',
      ),
      playlistSongCount: db.prepare('SELECT COUNT(*) AS n FROM playlist_songs WHERE playlist_id = ?'),
      albumSongIds: db.prepare(
        'SELECT id FROM songs WHERE album_id = ? ORDER BY track_no, id LIMIT ? OFFSET ?',
      ),
      albumSongCount: db.prepare('SELECT COUNT(*) AS n FROM songs WHERE album_id = ?'),
      likedSongIds: db.prepare(
        'SELECT song_id AS id FROM likes WHERE user_id = ? ORDER BY created_at DESC, song_id DESC LIMIT ? OFFSET ?',
      ),
      likedSongCount: db.prepare('SELECT COUNT(*) AS n FROM likes WHERE user_id = ?'),
      isLiked: db.prepare('SELECT 1 AS x FROM likes WHERE user_id = ? AND song_id = ?'),
      user: db.prepare('SELECT id, name, description FROM users WHERE id = ?'),
      artist: db.prepare('SELECT id, name, description FROM artists WHERE id = ?'),
      artistsByIds: db.prepare('SELECT id, name FROM artists WHERE id IN (SELECT value FROM json_each(?))'),
      songExists: db.prepare('SELECT id FROM songs WHERE id = ?'),
    }
  }

  private readonly statements = new Map<string, Statement>()

  /** Prepared statements, compiled once per distinct SQL text. */
  private prep(sql: string): Statement {
    let st = this.statements.get(sql)
    if (!st) {
      st = this.db.prepare(sql)
      this.statements.set(sql, st)
    }
    return st
  }

  private cached<T>(key: string, compute: () => T): T {
    const hit = this.cache.get(key)
    const now = Date.now()
    if (hit && now - hit.at < CACHE_MS) return hit.value as T
    const value = compute()
    this.cache.set(key, { at: now, value })
    return value
  }

  /** Forget computed charts and recommendations (after likes change them). */
  invalidate(): void {
    this.cache.clear()
  }

  // ---- shaping -------------------------------------------------------------------------------------

  cover(base: string, kind: 'album' | 'artist' | 'playlist' | 'user', id: number): string {
    return `${base}/media/cover/${kind}/${id}`
  }

  private artistJson(base: string, id: number, name: string): ArtistJson {
    return { id, name, avatar: this.cover(base, 'artist', id) }
  }

  userJson(base: string, user: { id: number; name: string; description?: string | null }): UserJson {
    const json: UserJson = { id: user.id, name: user.name, avatar: this.cover(base, 'user', user.id) }
    if (user.description) json.description = user.description
    return json
  }

  /** Songs in the order of `ids`; unknown ids are dropped. */
  songs(base: string, ids: readonly number[]): SongJson[] {
    if (ids.length === 0) return []
    if (ids.length === 1) {
      const one = this.song(base, ids[0])
      return one ? [one.song] : []
    }
    const rows = this.stmt.songs.all(JSON.stringify(ids)) as unknown as SongRow[]
    const byId = new Map(rows.map((r) => [r.id, r]))
    const out: SongJson[] = []
    for (const id of ids) {
      const r = byId.get(id)
      if (r) out.push(this.songJson(base, r))
    }
    return out
  }

  /** One song, with its lyrics (simple statements: cheaper than the list query for a single id). */
  song(base: string, id: number): { song: SongJson; lyric: Record<string, string> } | undefined {
    const r = this.stmt.songOne.get(id) as
      (Omit<SongRow, 'artists' | 'bitrates'> & Record<`lyric_${string}`, string | null>) | undefined
    if (!r) return undefined
    const artists = this.stmt.songArtists.all(id) as unknown as Array<[number, string]>
    const bitrates = (this.stmt.songBitrates.all(id) as Array<{ bitrate: number }>).map((r) => r.bitrate)
    const song = this.songJson(base, { ...r, artists, bitrates })
    const lyric: Record<string, string> = {}
    if (r.lyric_normal) lyric.normal = r.lyric_normal
    if (r.lyric_translation) lyric.translation = r.lyric_translation
    if (r.lyric_transliteration) lyric.transliteration = r.lyric_transliteration
    if (r.lyric_wordforword) lyric.wordforword = r.lyric_wordforword
    return { song, lyric }
  }

  private songJson(base: string, r: SongRow): SongJson {
    const bitrates = Array.isArray(r.bitrates)
      ? r.bitrates
      : r.bitrates
        ? r.bitrates.split(',').map(Number)
        : []
    const playable = r.playable === 1 && bitrates.length > 0
    const privilege: PrivilegeJson = {
      playable,
      bitrates,
      maxBitrate: bitrates.length > 0 ? bitrates[bitrates.length - 1] : 0,
    }
    if (!playable) privilege.reason = r.reason ?? 'This song has no playable file.'
    const song: SongJson = {
      id: r.id,
      name: r.name,
      artists: (Array.isArray(r.artists)
        ? r.artists
        : (JSON.parse(r.artists) as unknown as Array<[number, string]>)
      ).map(([id, name]) => this.artistJson(base, id, name)),
      duration: r.duration_ms,
      privilege,
    }
    if (r.tns) song.tns = JSON.parse(r.tns) as string[]
    if (r.album_id !== null && r.album_name !== null) {
      song.album = { id: r.album_id, name: r.album_name, cover: this.cover(base, 'album', r.album_id) }
    }
    return song
  }

  private playlistJson(base: string, p: PlaylistRow): PlaylistJson {
    const json: PlaylistJson = {
      id: p.id,
      name: p.name,
      cover: this.cover(base, p.kind === 'album' ? 'album' : 'playlist', p.id),
      size: this.playlistSize(p),
      type: p.type,
    }
    if (p.description) json.description = p.description
    if (p.creator_id !== null && p.creator_name !== null) {
      json.creator = this.userJson(base, { id: p.creator_id, name: p.creator_name })
    }
    const meta: Record<string, unknown> = { kind: p.kind }
    if (p.kind === 'album') {
      if (p.artist_id !== null && p.artist_name !== null) {
        meta.artists = [this.artistJson(base, p.artist_id, p.artist_name)]
      }
      if (p.released_at !== null) meta.releasedAt = new Date(p.released_at).toISOString()
    }
    if (p.kind === 'chart') meta.rule = p.rule
    json.meta = meta
    return json
  }

  private playlistSize(p: PlaylistRow): number {
    switch (p.kind) {
      case 'album':
        return (this.stmt.albumSize.get(p.id) as { n: number }).n
      case 'liked':
        return p.creator_id === null ? 0 : (this.stmt.likedSize.get(p.creator_id) as { n: number }).n
      case 'chart':
        return this.chartSongIds(p.rule ?? 'hot').length
      default:
        return (this.stmt.playlistSize.get(p.id) as { n: number }).n
    }
  }

  private playlistsByIds(base: string, ids: readonly number[]): PlaylistJson[] {
    if (ids.length === 0) return []
    const rows = this.stmt.playlistsByIds.all(JSON.stringify(ids)) as unknown as PlaylistRow[]
    const byId = new Map(rows.map((r) => [r.id, r]))
    return ids.flatMap((id) => {
      const r = byId.get(id)
      return r ? [this.playlistJson(base, r)] : []
    })
  }

  // ---- playlists -----------------------------------------------------------------------------------

  userPlaylists(
    base: string,
    uid: number,
    viewer: UserRow | null,
    limit: number,
    offset: number,
  ): PlaylistJson[] {
    const user = this.stmt.user.get(uid)
    if (!user) throw notFound(`No user with id ${uid}.`)
    const ownLikes = viewer !== null && viewer.id === uid
    const ids = (
      this.prep(
        `SELECT id FROM playlists WHERE creator_id = ? AND (kind IN ('user', 'editorial') OR (kind = 'liked' AND ?))
           ORDER BY kind = 'liked' DESC, created_at DESC, id LIMIT ? OFFSET ?`,
      ).all(uid, ownLikes ? 1 : 0, limit, offset) as Array<{ id: number }>
    ).map((r) => r.id)
    return this.playlistsByIds(base, ids)
  }

  /** Editorial and user playlists ranked by how much their songs are played and liked. */
  recommendPlaylists(base: string, limit: number, viewer: UserRow | null): PlaylistJson[] {
    const ranked = this.cached('recommend-playlists', () =>
      (
        this.prep(
          `SELECT p.id, p.creator_id FROM playlists p JOIN playlist_songs ps ON ps.playlist_id = p.id
             JOIN songs s ON s.id = ps.song_id
             WHERE p.kind IN ('editorial', 'user')
             GROUP BY p.id ORDER BY AVG(s.play_count + s.like_count * 20) DESC, p.id LIMIT 500`,
        ).all() as Array<{ id: number; creator_id: number | null }>
      ).map((r) => r),
    )
    const ids = ranked.filter((r) => viewer === null || r.creator_id !== viewer.id).map((r) => r.id)
    return this.playlistsByIds(base, ids.slice(0, limit))
  }

  toplists(base: string, limit: number): PlaylistJson[] {
    const ids = (
      this.prep("SELECT id FROM playlists WHERE kind = 'chart' ORDER BY id LIMIT ?").all(limit) as Array<{
        id: number
      }>
    ).map((r) => r.id)
    return this.playlistsByIds(base, ids)
  }

  /**
   * A playlist with its songs. `page` is this server's extension (other servers ignore it): only the songs
   * from `offset`, at most `limit` of them; `size` is always the whole list's length, so a client that
   * asked for a page knows how many songs there are.
   */
  playlistDetail(
    base: string,
    id: number,
    viewer: UserRow | null,
    page?: { offset: number; limit?: number },
  ): PlaylistJson {
    const p = this.stmt.playlist.get(id) as PlaylistRow | undefined
    if (!p) throw notFound(`No playlist or album with id ${id}.`)
    if (p.kind === 'liked' && (viewer === null || viewer.id !== p.creator_id)) {
      if (viewer === null) throw loginRequired()
      throw new ApiError(403, 'This liked-songs playlist belongs to another user.')
    }
    const json = this.playlistJson(base, p)
    const offset = page?.offset ?? 0
    const limit = Math.min(page?.limit ?? MAX_DETAIL_SONGS, MAX_DETAIL_SONGS)
    const { ids, size } = this.playlistSongIds(p, offset, limit)
    json.songs = this.songs(base, ids)
    json.size = size
    return json
  }

  /** The ids of one page of a playlist's songs, and how many it has in all (at most MAX_DETAIL_SONGS). */
  private playlistSongIds(p: PlaylistRow, offset: number, limit: number): { ids: number[]; size: number } {
    const pluck = (rows: unknown[]) => (rows as Array<{ id: number }>).map((r) => r.id)
    const count = (row: unknown) => Math.min((row as { n: number }).n, MAX_DETAIL_SONGS)
    // Never past the cap, whatever the offset.
    const take = Math.max(0, Math.min(limit, MAX_DETAIL_SONGS - offset))
    switch (p.kind) {
      case 'album':
        return {
          ids: pluck(this.stmt.albumSongIds.all(p.id, take, offset)),
          size: count(this.stmt.albumSongCount.get(p.id)),
        }
      case 'liked':
        return {
          ids: pluck(this.stmt.likedSongIds.all(p.creator_id, take, offset)),
          size: count(this.stmt.likedSongCount.get(p.creator_id)),
        }
      case 'chart': {
        const all = this.chartSongIds(p.rule ?? 'hot')
        return { ids: all.slice(offset, offset + take), size: all.length }
      }
      default:
        return {
          ids: pluck(this.stmt.playlistSongIds.all(p.id, take, offset)),
          size: count(this.stmt.playlistSongCount.get(p.id)),
        }
    }
  }

  /** Charts, computed from plays, likes and release dates (cached for 30 s). */
  chartSongIds(rule: string): number[] {
    return this.cached(`chart:${rule}`, () => {
      const ids = (sql: string) => (this.prep(sql).all() as Array<{ id: number }>).map((r) => r.id)
      switch (rule) {
        case 'liked':
          return ids('SELECT id FROM songs WHERE playable = 1 ORDER BY like_count DESC, id LIMIT 50')
        case 'new':
          return ids(
            `SELECT s.id FROM playlists p JOIN songs s ON s.album_id = p.id
             WHERE p.kind = 'album' AND s.playable = 1 ORDER BY p.released_at DESC, s.track_no LIMIT 50`,
          )
        case 'rising':
          return ids(
            `SELECT s.id FROM playlists p JOIN songs s ON s.album_id = p.id
             WHERE p.kind = 'album' AND s.playable = 1
               AND p.released_at >= (SELECT MAX(released_at) FROM playlists WHERE kind = 'album') - 120 * 86400000
             ORDER BY s.play_count DESC LIMIT 50`,
          )
        default:
          return this.hotSongs()
            .slice(0, 50)
            .map((s) => s.id)
      }
    })
  }

  /** The most played and liked songs, best first (top by plays and by likes, ranked by score). */
  private hotSongs(): Array<{ id: number; score: number }> {
    return this.cached('hot', () => {
      const rows = this.prep(
        `SELECT id, play_count, like_count FROM (SELECT id, play_count, like_count FROM songs WHERE playable = 1
             ORDER BY play_count DESC LIMIT 500)
           UNION SELECT id, play_count, like_count FROM (SELECT id, play_count, like_count FROM songs
             WHERE playable = 1 ORDER BY like_count DESC LIMIT 200)`,
      ).all() as Array<{ id: number; play_count: number; like_count: number }>
      return rows.map((r) => ({ id: r.id, score: SCORE(r) })).sort((a, b) => b.score - a.score || a.id - b.id)
    })
  }

  // ---- songs ---------------------------------------------------------------------------------------

  /**
   * Songs to play next: for a signed-in user, popular songs by the artists they like first; then the
   * hottest songs. Liked songs are left out. Rotates daily.
   */
  recommendSongs(base: string, limit: number, viewer: UserRow | null): SongJson[] {
    const liked = new Set<number>()
    let fromArtists: number[] = []
    if (viewer) {
      for (const r of this.prep('SELECT song_id FROM likes WHERE user_id = ?').all(viewer.id) as Array<{
        song_id: number
      }>)
        liked.add(r.song_id)
      fromArtists = (
        this.prep(
          `SELECT s.id FROM songs s JOIN song_artists sa ON sa.song_id = s.id
             WHERE s.playable = 1 AND sa.artist_id IN (
               SELECT sa2.artist_id FROM likes l JOIN song_artists sa2 ON sa2.song_id = l.song_id
               WHERE l.user_id = ? ORDER BY l.created_at DESC LIMIT 20)
             ORDER BY s.play_count DESC LIMIT 200`,
        ).all(viewer.id) as Array<{ id: number }>
      ).map((r) => r.id)
    }
    const day = Math.floor(Date.now() / 86_400_000)
    const shuffle = (ids: number[], salt: number) =>
      ids
        .map((id) => ({ id, k: Math.imul(id ^ salt, 2654435761) >>> 0 }))
        .sort((a, b) => a.k - b.k)
        .map((x) => x.id)
    const hot = shuffle(
      this.hotSongs()
        .slice(0, 300)
        .map((s) => s.id),
      day,
    )
    const picked: number[] = []
    const seen = new Set<number>()
    const take = (ids: number[], max: number) => {
      for (const id of ids) {
        if (picked.length >= max) break
        if (liked.has(id) || seen.has(id)) continue
        seen.add(id)
        picked.push(id)
      }
    }
    take(shuffle(fromArtists, day + (viewer?.id ?? 0)), Math.ceil(limit / 2))
    take(hot, limit)
    return this.songs(base, picked)
  }

  songExists(id: number): boolean {
    return this.stmt.songExists.get(id) !== undefined
  }

  isLiked(userId: number, songId: number): boolean {
    return this.stmt.isLiked.get(userId, songId) !== undefined
  }

  like(user: UserRow, songId: number, like: boolean): { id: number; like: boolean; playlist: number } {
    if (!this.songExists(songId)) throw notFound(`No song with id ${songId}.`)
    const playlist = likedPlaylistId(this.db, user.id)
    transaction(this.db, () => {
      if (like) {
        const res = this.prep(
          'INSERT OR IGNORE INTO likes (user_id, song_id, created_at) VALUES (?, ?, ?)',
        ).run(user.id, songId, Date.now())
        if (res.changes > 0)
          this.prep('UPDATE songs SET like_count = like_count + 1 WHERE id = ?').run(songId)
      } else {
        const res = this.prep('DELETE FROM likes WHERE user_id = ? AND song_id = ?').run(user.id, songId)
        if (res.changes > 0) {
          this.prep('UPDATE songs SET like_count = MAX(0, like_count - 1) WHERE id = ?').run(songId)
        }
      }
    })
    return { id: songId, like, playlist }
  }

  lyric(songId: number): Record<string, string> {
    const row = this.prep(
      'SELECT lyric_normal, lyric_translation, lyric_transliteration, lyric_wordforword FROM songs WHERE id = ?',
    ).get(songId) as Record<string, string | null> | undefined
    const out: Record<string, string> = {}
    if (!row) return out
    if (row.lyric_normal) out.normal = row.lyric_normal
    if (row.lyric_translation) out.translation = row.lyric_translation
    if (row.lyric_transliteration) out.transliteration = row.lyric_transliteration
    if (row.lyric_wordforword) out.wordforword = row.lyric_wordforword
    return out
  }

  countPlay(songId: number): void {
    this.prep('UPDATE songs SET play_count = play_count + 1 WHERE id = ?').run(songId)
  }

  // ---- artists -------------------------------------------------------------------------------------

  /** Artists whose songs are played and liked most (over the 2,000 most played songs). */
  recommendArtists(base: string, limit: number): ArtistJson[] {
    const ranked = this.cached(
      'recommend-artists',
      () =>
        this.prep(
          `SELECT a.id, a.name FROM (SELECT id, play_count, like_count FROM songs ORDER BY play_count DESC LIMIT 2000) s
           JOIN song_artists sa ON sa.song_id = s.id JOIN artists a ON a.id = sa.artist_id
           GROUP BY a.id ORDER BY SUM(s.play_count + s.like_count * 20) DESC, a.id LIMIT 100`,
        ).all() as Array<{ id: number; name: string }>,
    )
    return ranked.slice(0, limit).map((a) => this.artistJson(base, a.id, a.name))
  }

  artistDetail(base: string, id: number): PlaylistJson {
    const a = this.stmt.artist.get(id) as { id: number; name: string; description: string | null } | undefined
    if (!a) throw notFound(`No artist with id ${id}.`)
    const songIds = (
      this.prep(
        `SELECT s.id FROM song_artists sa JOIN songs s ON s.id = sa.song_id WHERE sa.artist_id = ?
           ORDER BY s.play_count + s.like_count * 20 DESC, s.id LIMIT 50`,
      ).all(id) as Array<{ id: number }>
    ).map((r) => r.id)
    const total = (
      this.prep('SELECT COUNT(*) AS n FROM song_artists WHERE artist_id = ?').get(id) as {
        n: number
      }
    ).n
    const albums = this.prep(
      `SELECT ${PLAYLIST_COLUMNS} FROM ${PLAYLIST_FROM} WHERE p.kind = 'album' AND p.artist_id = ?
         ORDER BY p.released_at DESC LIMIT 50`,
    ).all(id) as unknown as PlaylistRow[]
    const json: PlaylistJson = {
      id: a.id,
      name: a.name,
      cover: this.cover(base, 'artist', a.id),
      size: songIds.length,
      type: 'artist',
      songs: this.songs(base, songIds),
      meta: {
        kind: 'artist',
        avatar: this.cover(base, 'artist', a.id),
        songCount: total,
        albums: albums.map((p) => this.albumJson(base, p)),
      },
    }
    if (a.description) json.description = a.description
    return json
  }

  private albumJson(base: string, p: PlaylistRow): AlbumJson {
    const json: AlbumJson = {
      id: p.id,
      name: p.name,
      cover: this.cover(base, 'album', p.id),
      size: (this.stmt.albumSize.get(p.id) as { n: number }).n,
    }
    if (p.artist_id !== null && p.artist_name !== null)
      json.artists = [this.artistJson(base, p.artist_id, p.artist_name)]
    return json
  }

  // ---- search --------------------------------------------------------------------------------------

  search(
    base: string,
    keywords: string,
    limit: number,
  ): { songs: SongJson[]; albums: AlbumJson[]; artists: ArtistJson[]; playlists: PlaylistJson[] } {
    const songIds = this.searchIds('song', keywords, limit)
    const albumIds = this.searchIds('album', keywords, limit)
    const artistIds = this.searchIds('artist', keywords, limit)
    const playlistIds = this.searchIds('playlist', keywords, limit)
    const artistRows = artistIds.length
      ? (this.stmt.artistsByIds.all(JSON.stringify(artistIds)) as Array<{ id: number; name: string }>)
      : []
    const artistById = new Map(artistRows.map((a) => [a.id, a]))
    const albumRows = albumIds.length
      ? (this.stmt.playlistsByIds.all(JSON.stringify(albumIds)) as unknown as PlaylistRow[])
      : []
    const albumById = new Map(albumRows.map((p) => [p.id, p]))
    return {
      songs: this.songs(base, songIds),
      albums: albumIds.flatMap((id) => {
        const p = albumById.get(id)
        return p ? [this.albumJson(base, p)] : []
      }),
      artists: artistIds.flatMap((id) => {
        const a = artistById.get(id)
        return a ? [this.artistJson(base, a.id, a.name)] : []
      }),
      playlists: this.playlistsByIds(base, playlistIds),
    }
  }

  /**
   * Ids matching `keywords`, best first. Terms of 3+ characters go through the trigram FTS index (each
   * quoted, so FTS syntax in the input is literal text); when every term is shorter (e.g. `夜`, `星空`) the
   * lower-cased names are scanned with instr(). Exact and prefix name matches rank first.
   */
  searchIds(kind: SearchKind, keywords: string, limit: number): number[] {
    const terms = keywords.normalize('NFKC').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 16)
    if (terms.length === 0) return []
    const long = terms.filter((t) => [...t].length >= 3)
    const whole = terms.join(' ')
    // Within a relevance tier, popular songs first; other kinds prefer shorter names.
    const popularity = kind === 'song' ? '-(s.play_count + s.like_count * 20)' : 'length(k.key)'
    const join = kind === 'song' ? 'JOIN songs s ON s.id = m.id' : ''
    let candidates: Array<{ id: number; key: string; rank: number }>
    if (long.length > 0) {
      // Trigram FTS; bm25 is too slow on trigram doclists, so candidates are ranked below instead.
      const table = ftsTable(kind)
      const match = long.map((t) => `"${t.replace(/"/g, '""')}"`).join(' AND ')
      candidates = this.prep(
        `SELECT m.id, k.key, ${popularity} AS rank FROM (SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ? LIMIT 300) m
         JOIN search_keys k ON k.kind = ? AND k.id = m.id ${join}`,
      ).all(match, kind) as Array<{ id: number; key: string; rank: number }>
    } else if (terms.every((t) => /^[\p{L}\p{N}]+$/u.test(t))) {
      // 1–2 character terms: the unigram/bigram index.
      const table = shortTable(kind)
      const match = terms.map((t) => `"${t}"`).join(' AND ')
      candidates = (
        this.prep(
          `SELECT m.id, k.key FROM (SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ? LIMIT 300) m
             JOIN search_keys k ON k.kind = ? AND k.id = m.id`,
        ).all(match, kind) as Array<{ id: number; key: string }>
      ).map((r) => ({ ...r, rank: r.key.length }))
    } else {
      // Short terms with punctuation: scan the keys.
      const where = terms.map(() => 'instr(key, ?) > 0').join(' AND ')
      candidates = (
        this.prep(`SELECT id, key FROM search_keys WHERE kind = ? AND ${where} LIMIT 200`).all(
          kind,
          ...terms,
        ) as Array<{ id: number; key: string }>
      ).map((r) => ({ ...r, rank: r.key.length }))
    }
    const tier = (key: string) =>
      key === whole ? 0 : key.startsWith(whole) ? 1 : key.includes(whole) ? 2 : 3
    return candidates
      .map((c) => ({ ...c, tier: tier(c.key) }))
      .sort((a, b) => a.tier - b.tier || a.rank - b.rank || a.id - b.id)
      .slice(0, limit)
      .map((c) => c.id)
  }
}
