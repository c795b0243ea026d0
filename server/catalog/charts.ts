import { popularity } from './popularity'
import { ids, type CatalogStore } from './store'

const CHART_SIZE = 50
const RISING_WINDOW_MS = 120 * 86_400_000

/** A chart's songs, computed from plays, likes and release dates (cached for 30 s). */
export function chartSongIds(store: CatalogStore, rule: string): number[] {
  return store.cached(`chart:${rule}`, () => {
    const all = (sql: string) => ids(store.prep(sql).all())
    switch (rule) {
      case 'liked':
        return all(`SELECT id FROM songs WHERE playable = 1 ORDER BY like_count DESC, id LIMIT ${CHART_SIZE}`)
      case 'new':
        return all(
          `SELECT s.id FROM playlists p JOIN songs s ON s.album_id = p.id
           WHERE p.kind = 'album' AND s.playable = 1 ORDER BY p.released_at DESC, s.disc_no, s.track_no LIMIT ${CHART_SIZE}`,
        )
      case 'rising':
        return all(
          `SELECT s.id FROM playlists p JOIN songs s ON s.album_id = p.id
           WHERE p.kind = 'album' AND s.playable = 1
             AND p.released_at >= (SELECT MAX(released_at) FROM playlists WHERE kind = 'album') - ${RISING_WINDOW_MS}
           ORDER BY s.play_count DESC LIMIT ${CHART_SIZE}`,
        )
      default:
        return hotSongs(store)
          .slice(0, CHART_SIZE)
          .map((s) => s.id)
    }
  })
}

/**
 * The most played and liked songs, best first: the top 500 by plays and the top 200 by likes, ranked by
 * popularity (cached for 30 s).
 */
export function hotSongs(store: CatalogStore): Array<{ id: number; score: number }> {
  return store.cached('hot', () => {
    const rows = store
      .prep(
        `SELECT id, play_count, like_count FROM (SELECT id, play_count, like_count FROM songs WHERE playable = 1
             ORDER BY play_count DESC LIMIT 500)
           UNION SELECT id, play_count, like_count FROM (SELECT id, play_count, like_count FROM songs
             WHERE playable = 1 ORDER BY like_count DESC LIMIT 200)`,
      )
      .all() as Array<{ id: number; play_count: number; like_count: number }>
    return rows
      .map((r) => ({ id: r.id, score: popularity(r) }))
      .sort((a, b) => b.score - a.score || a.id - b.id)
  })
}
