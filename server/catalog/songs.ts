import { transaction } from '../db/sqlite'
import { likedPlaylistId } from '../db/users'
import { notFound } from '../envelope'
import type { UserRow } from '../auth'
import { hotSongs } from './charts'
import { songJson } from './shape'
import { ids, type CatalogStore } from './store'
import type { SongJson, SongRow } from './types'

const SONG_LIST = `SELECT s.id, s.name, s.tns, s.duration_ms, s.playable, s.reason, s.album_id, al.name AS album_name,
     s.disc_no, s.track_no,
     (SELECT json_group_array(json_array(x.id, x.name)) FROM
       (SELECT a.id, a.name FROM song_artists sa JOIN artists a ON a.id = sa.artist_id
        WHERE sa.song_id = s.id ORDER BY sa.position) x) AS artists,
     (SELECT group_concat(bitrate) FROM (SELECT bitrate FROM song_files f WHERE f.song_id = s.id ORDER BY bitrate))
       AS bitrates
   FROM songs s LEFT JOIN playlists al ON al.id = s.album_id WHERE s.id IN (SELECT value FROM json_each(?))`

const SONG_ONE = `SELECT s.id, s.name, s.tns, s.duration_ms, s.playable, s.reason, s.album_id, al.name AS album_name,
     s.lyric_normal, s.lyric_translation, s.lyric_transliteration, s.lyric_wordforword, s.genre, s.replay_gain,
     s.disc_no, s.track_no
   FROM songs s LEFT JOIN playlists al ON al.id = s.album_id WHERE s.id = ?`

const LYRIC_KINDS = ['normal', 'translation', 'transliteration', 'wordforword'] as const

/** Songs in the order of `songIds`; unknown ids are dropped. */
export function songs(store: CatalogStore, base: string, songIds: readonly number[]): SongJson[] {
  if (songIds.length === 0) return []
  if (songIds.length === 1) {
    const one = song(store, base, songIds[0])
    return one ? [one.song] : []
  }
  const rows = store.prep(SONG_LIST).all(JSON.stringify(songIds)) as unknown as SongRow[]
  const byId = new Map(rows.map((r) => [r.id, r]))
  const out: SongJson[] = []
  for (const id of songIds) {
    const r = byId.get(id)
    if (r) out.push(songJson(base, r))
  }
  return out
}

/**
 * One song, with its lyrics and the tags a music folder's file had (genre, ReplayGain) for its `meta`
 * (simple statements: cheaper than the list query for a single id).
 */
export function song(
  store: CatalogStore,
  base: string,
  id: number,
): { song: SongJson; lyric: Record<string, string>; tags: Record<string, unknown> } | undefined {
  const r = store.prep(SONG_ONE).get(id) as
    | (Omit<SongRow, 'artists' | 'bitrates'> &
        Record<`lyric_${string}`, string | null> & { genre: string | null; replay_gain: string | null })
    | undefined
  if (!r) return undefined
  const artists = store
    .prepArrays(
      'SELECT a.id, a.name FROM song_artists sa JOIN artists a ON a.id = sa.artist_id WHERE sa.song_id = ? ORDER BY sa.position',
    )
    .all(id) as unknown as Array<[number, string]>
  const bitrates = (
    store.prep('SELECT bitrate FROM song_files WHERE song_id = ? ORDER BY bitrate').all(id) as Array<{
      bitrate: number
    }>
  ).map((b) => b.bitrate)
  const lyric: Record<string, string> = {}
  for (const kind of LYRIC_KINDS) {
    const text = r[`lyric_${kind}`]
    if (text) lyric[kind] = text
  }
  const tags: Record<string, unknown> = {}
  if (r.genre) tags.genre = r.genre
  if (r.replay_gain) tags.replayGain = JSON.parse(r.replay_gain) as unknown
  return { song: songJson(base, { ...r, artists, bitrates }), lyric, tags }
}

/**
 * Songs to play next: for a signed-in user, popular songs by the artists they like first; then the
 * hottest songs. Liked songs are left out. Rotates daily.
 */
export function recommendSongs(
  store: CatalogStore,
  base: string,
  limit: number,
  viewer: UserRow | null,
): SongJson[] {
  const liked = new Set<number>()
  let fromArtists: number[] = []
  if (viewer) {
    const likes = store.prep('SELECT song_id FROM likes WHERE user_id = ?').all(viewer.id) as Array<{
      song_id: number
    }>
    for (const r of likes) liked.add(r.song_id)
    fromArtists = ids(
      store
        .prep(
          `SELECT s.id FROM songs s JOIN song_artists sa ON sa.song_id = s.id
             WHERE s.playable = 1 AND sa.artist_id IN (
               SELECT sa2.artist_id FROM likes l JOIN song_artists sa2 ON sa2.song_id = l.song_id
               WHERE l.user_id = ? ORDER BY l.created_at DESC LIMIT 20)
             ORDER BY s.play_count DESC LIMIT 200`,
        )
        .all(viewer.id),
    )
  }
  const day = Math.floor(store.time() / 86_400_000)
  const hot = dailyShuffle(
    hotSongs(store)
      .slice(0, 300)
      .map((s) => s.id),
    day,
  )
  const picked: number[] = []
  const seen = new Set<number>()
  const take = (candidates: number[], max: number) => {
    for (const id of candidates) {
      if (picked.length >= max) break
      if (liked.has(id) || seen.has(id)) continue
      seen.add(id)
      picked.push(id)
    }
  }
  take(dailyShuffle(fromArtists, day + (viewer?.id ?? 0)), Math.ceil(limit / 2))
  take(hot, limit)
  return songs(store, base, picked)
}

/** A fixed order of `songIds` for one `salt` (a day number), different from day to day. */
function dailyShuffle(songIds: number[], salt: number): number[] {
  return songIds
    .map((id) => ({ id, k: Math.imul(id ^ salt, 2654435761) >>> 0 }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.id)
}

export function songExists(store: CatalogStore, id: number): boolean {
  return store.prep('SELECT id FROM songs WHERE id = ?').get(id) !== undefined
}

export function isLiked(store: CatalogStore, userId: number, songId: number): boolean {
  return (
    store.prep('SELECT 1 AS x FROM likes WHERE user_id = ? AND song_id = ?').get(userId, songId) !== undefined
  )
}

/** Likes or unlikes a song for `user`; the song's like count follows, once per user. */
export function like(
  store: CatalogStore,
  user: UserRow,
  songId: number,
  value: boolean,
): { id: number; like: boolean; playlist: number } {
  if (!songExists(store, songId)) throw notFound(`No song with id ${songId}.`)
  const playlist = likedPlaylistId(store.db, user.id)
  transaction(store.db, () => {
    if (value) {
      const res = store
        .prep('INSERT OR IGNORE INTO likes (user_id, song_id, created_at) VALUES (?, ?, ?)')
        .run(user.id, songId, store.time())
      if (res.changes > 0) store.prep('UPDATE songs SET like_count = like_count + 1 WHERE id = ?').run(songId)
    } else {
      const res = store.prep('DELETE FROM likes WHERE user_id = ? AND song_id = ?').run(user.id, songId)
      if (res.changes > 0) {
        store.prep('UPDATE songs SET like_count = MAX(0, like_count - 1) WHERE id = ?').run(songId)
      }
    }
  })
  return { id: songId, like: value, playlist }
}

export function countPlay(store: CatalogStore, songId: number): void {
  store.prep('UPDATE songs SET play_count = play_count + 1 WHERE id = ?').run(songId)
}
