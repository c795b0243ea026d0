import { transaction, type DB } from '../db/sqlite'
import { SearchIndexer } from '../db/search-index'

/**
 * Takes the demo catalogue out of the data dir (`--no-demo`): its songs (with their likes, files and
 * places in any playlist), albums, playlists and charts, its artists no song of the music folders
 * shares, and the users only it made, each out of the search index too. Nothing of the music folders is
 * touched. A later start with the demo on generates it again (`generateDemo`, the same songs).
 */
export function removeDemo(db: DB): { songs: number } {
  return transaction(db, () => {
    const search = new SearchIndexer(db)
    const ids = (sql: string) => (db.prepare(sql).all() as Array<{ id: number }>).map((r) => r.id)
    const songs = ids("SELECT id FROM songs WHERE source = 'demo'")
    const users = ids(
      `SELECT id FROM users WHERE is_owner = 0
         AND id IN (SELECT creator_id FROM playlists WHERE source = 'demo')
         AND id NOT IN (SELECT user_id FROM tokens)`,
    )
    for (const id of songs) search.remove('song', id)
    db.exec("DELETE FROM songs WHERE source = 'demo'")
    // A demo album a music folder's song also ended up in (same artist and title) stays.
    const playlists = ids(
      `SELECT id FROM playlists WHERE source = 'demo'
         AND id NOT IN (SELECT album_id FROM songs WHERE album_id IS NOT NULL)`,
    )
    const dropPlaylist = db.prepare('DELETE FROM playlists WHERE id = ?')
    for (const id of playlists) {
      search.remove(playlistKind(db, id), id)
      dropPlaylist.run(id)
    }
    const artists = ids(
      `SELECT id FROM artists WHERE source = 'demo'
         AND id NOT IN (SELECT artist_id FROM song_artists)
         AND id NOT IN (SELECT artist_id FROM playlists WHERE artist_id IS NOT NULL)`,
    )
    const dropArtist = db.prepare('DELETE FROM artists WHERE id = ?')
    for (const id of artists) {
      search.remove('artist', id)
      dropArtist.run(id)
    }
    const dropUser = db.prepare('DELETE FROM users WHERE id = ?')
    const dropLiked = db.prepare("DELETE FROM playlists WHERE creator_id = ? AND kind = 'liked'")
    for (const id of users) {
      dropLiked.run(id)
      dropUser.run(id)
    }
    db.prepare("DELETE FROM meta WHERE key = 'demo_songs'").run()
    return { songs: songs.length }
  })
}

/** Albums are indexed as albums, every other playlist as a playlist. */
function playlistKind(db: DB, id: number): 'album' | 'playlist' {
  const row = db.prepare('SELECT type FROM playlists WHERE id = ?').get(id) as { type: string } | undefined
  return row?.type === 'album' ? 'album' : 'playlist'
}
