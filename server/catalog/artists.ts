import { notFound } from '../envelope'
import { albumSize } from './playlists'
import { popularitySql } from './popularity'
import { albumJson, artistJson, cover } from './shape'
import { songs } from './songs'
import { ids, type CatalogStore } from './store'
import {
  PLAYLIST_COLUMNS,
  PLAYLIST_FROM,
  type ArtistJson,
  type PlaylistJson,
  type PlaylistRow,
} from './types'

/** Artists whose songs are most popular (summed over the 2,000 most played songs; cached for 30 s). */
export function recommendArtists(store: CatalogStore, base: string, limit: number): ArtistJson[] {
  const ranked = store.cached(
    'recommend-artists',
    () =>
      store
        .prep(
          `SELECT a.id, a.name FROM (SELECT id, play_count, like_count FROM songs ORDER BY play_count DESC LIMIT 2000) s
           JOIN song_artists sa ON sa.song_id = s.id JOIN artists a ON a.id = sa.artist_id
           GROUP BY a.id ORDER BY SUM${popularitySql('s')} DESC, a.id LIMIT 100`,
        )
        .all() as Array<{ id: number; name: string }>,
  )
  return ranked.slice(0, limit).map((a) => artistJson(base, a.id, a.name))
}

/** An artist as the spec's artist playlist: their 50 most popular songs, albums newest first. */
export function artistDetail(store: CatalogStore, base: string, id: number): PlaylistJson {
  const a = store.prep('SELECT id, name, description FROM artists WHERE id = ?').get(id) as
    { id: number; name: string; description: string | null } | undefined
  if (!a) throw notFound(`No artist with id ${id}.`)
  const songIds = ids(
    store
      .prep(
        `SELECT s.id FROM song_artists sa JOIN songs s ON s.id = sa.song_id WHERE sa.artist_id = ?
           ORDER BY ${popularitySql('s')} DESC, s.id LIMIT 50`,
      )
      .all(id),
  )
  const total = (
    store.prep('SELECT COUNT(*) AS n FROM song_artists WHERE artist_id = ?').get(id) as { n: number }
  ).n
  const albums = store
    .prep(
      `SELECT ${PLAYLIST_COLUMNS} FROM ${PLAYLIST_FROM} WHERE p.kind = 'album' AND p.artist_id = ?
         ORDER BY p.released_at DESC LIMIT 50`,
    )
    .all(id) as unknown as PlaylistRow[]
  const json: PlaylistJson = {
    id: a.id,
    name: a.name,
    cover: cover(base, 'artist', a.id),
    size: songIds.length,
    type: 'artist',
    songs: songs(store, base, songIds),
    meta: {
      kind: 'artist',
      avatar: cover(base, 'artist', a.id),
      songCount: total,
      albums: albums.map((p) => albumJson(base, p, albumSize(store, p.id))),
    },
  }
  if (a.description) json.description = a.description
  return json
}
