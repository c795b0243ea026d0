import { readdirSync, readFileSync, statSync } from 'node:fs'
import type { DB } from '../db/sqlite'
import { statement, transaction } from '../db/sqlite'
import type { SearchIndexer } from '../db/search-index'
import { decodePath, joinRaw } from './paths'
import { COVER_NAME } from './walk'

const COVER_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
}

/** A `cover.*`/`folder.*` (or `front.*`, `album.*`) picture beside the files, for an album without one. */
function folderPicture(stored: string): Picture | undefined {
  const folder = decodePath(stored)
  const dir = typeof folder === 'string' ? Buffer.from(folder) : folder
  try {
    const names = readdirSync(dir, { encoding: 'buffer' })
      .map((n) => n.toString('latin1'))
      .filter((n) => COVER_NAME.test(n))
      .sort(
        (a, b) =>
          (a.toLowerCase().startsWith('cover') ? -1 : 0) - (b.toLowerCase().startsWith('cover') ? -1 : 0),
      )
    for (const name of names) {
      const path = joinRaw(dir, Buffer.from(name, 'latin1'))
      if (statSync(path).size > 10 * 1024 * 1024) continue
      const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase()
      return { mime: COVER_TYPES[ext], data: readFileSync(path) }
    }
  } catch {
    // no folder, no picture
  }
  return undefined
}

/** The album artist of a compilation without an album-artist tag. */
export const VARIOUS_ARTISTS = 'Various Artists'

export interface Picture {
  mime: string
  data: Uint8Array
}

/** Where a picture read during a scan is kept until the albums are grouped: by folder and album title. */
export const pictureKey = (folder: string, album: string) => `${folder}\0${album}`

interface FileRow {
  song_id: number
  folder: string
  album: string
  album_artist: string | null
  artist: string
  compilation: number
  year: number | null
  album_id: number | null
  disc_no: number
  track_no: number
}

function findOrAddArtist(db: DB, search: SearchIndexer, name: string): number {
  const row = statement(db, 'SELECT id FROM artists WHERE name = ? ORDER BY id LIMIT 1').get(name) as
    { id: number } | undefined
  if (row) return row.id
  const id = Number(
    statement(db, "INSERT INTO artists (name, source) VALUES (?, 'library')").run(name).lastInsertRowid,
  )
  search.add('artist', id, name)
  return id
}

/** Who an album without an album-artist tag belongs to: the artist of most of its songs, else various. */
function groupArtist(rows: FileRow[]): string {
  if (rows.some((r) => r.compilation)) return VARIOUS_ARTISTS
  const counts = new Map<string, number>()
  for (const r of rows) counts.set(r.artist, (counts.get(r.artist) ?? 0) + 1)
  let best = rows[0].artist
  for (const r of rows) if (counts.get(r.artist)! > counts.get(best)!) best = r.artist
  // Many artists, none with half the songs: a compilation.
  if (counts.size >= 3 && counts.get(best)! * 2 < rows.length) return VARIOUS_ARTISTS
  return best
}

/**
 * Puts every imported song in its album. An album is its album artist and title: the album-artist tag
 * (TPE2, ALBUMARTIST, aART) when a file has one; otherwise the songs of one title in one folder are taken
 * together and belong to the primary artist ("A feat. B" counts as A) most of them have, or to "Various
 * Artists" for a compilation (the compilation tag, or three or more artists none of which has half the
 * songs). So one track with a guest does not split its album, whichever file is read first. Albums left
 * without songs are deleted; an album without a cover gets an embedded picture read in this scan, else a
 * `cover.*`/`folder.*` picture beside its files.
 */
export function groupAlbums(
  db: DB,
  search: SearchIndexer,
  pictures: Map<string, Picture>,
  now: number,
  /** The folders the walk saw a cover picture in: only those are looked in. */
  coverFolders: Set<string>,
  /**
   * Only the albums of these titles and these songs (changes.ts): every song of a title is still read, so
   * each album it groups is whole. Default: all.
   */
  only?: { titles: Set<string>; songs: Set<number> },
): void {
  const rows = (only
    ? statement(
        db,
        `SELECT f.song_id, f.folder, f.album, f.album_artist, f.artist, f.compilation, f.year, s.album_id, s.disc_no, s.track_no
           FROM library_files f JOIN songs s ON s.id = f.song_id WHERE f.error IS NULL
           AND (f.album IN (SELECT value FROM json_each(?)) OR f.song_id IN (SELECT value FROM json_each(?)))`,
      ).all(JSON.stringify([...only.titles]), JSON.stringify([...only.songs]))
    : statement(
        db,
        `SELECT f.song_id, f.folder, f.album, f.album_artist, f.artist, f.compilation, f.year, s.album_id, s.disc_no, s.track_no
           FROM library_files f JOIN songs s ON s.id = f.song_id WHERE f.error IS NULL`,
      ).all()) as unknown as FileRow[]
  const byFolder = new Map<string, FileRow[]>()
  const loose: FileRow[] = []
  for (const r of rows) {
    if (!r.album) {
      loose.push(r)
      continue
    }
    const key = r.album_artist ? `a\0${r.album_artist}\0${r.album}` : `f\0${r.folder}\0${r.album}`
    const list = byFolder.get(key)
    if (list) list.push(r)
    else byFolder.set(key, [r])
  }
  transaction(db, () => {
    for (const r of loose) {
      if (r.album_id !== null) statement(db, 'UPDATE songs SET album_id = NULL WHERE id = ?').run(r.song_id)
    }
    for (const group of byFolder.values()) {
      group.sort((a, b) => a.disc_no - b.disc_no || a.track_no - b.track_no)
      const title = group[0].album
      const artist = group[0].album_artist ?? groupArtist(group)
      const artistId = findOrAddArtist(db, search, artist)
      const year = group.find((r) => r.year)?.year
      let albumId = (
        statement(db, "SELECT id FROM playlists WHERE kind = 'album' AND artist_id = ? AND name = ?").get(
          artistId,
          title,
        ) as { id: number } | undefined
      )?.id
      if (albumId === undefined) {
        albumId = Number(
          statement(
            db,
            `INSERT INTO playlists (name, type, kind, artist_id, released_at, created_at, source)
             VALUES (?, 'album', 'album', ?, ?, ?, 'library')`,
          ).run(title, artistId, year ? Date.UTC(year, 0, 1) : null, now).lastInsertRowid,
        )
        search.add('album', albumId, title, artist)
      }
      for (const r of group) {
        if (r.album_id !== albumId) {
          statement(db, 'UPDATE songs SET album_id = ? WHERE id = ?').run(albumId, r.song_id)
        }
      }
      const hasCover = statement(db, 'SELECT 1 FROM images WHERE owner = ?').get(`album:${albumId}`)
      if (!hasCover) {
        const picture =
          group.map((r) => pictures.get(pictureKey(r.folder, r.album))).find(Boolean) ??
          [...new Set(group.map((r) => r.folder))]
            .filter((f) => coverFolders.has(f))
            .map(folderPicture)
            .find(Boolean)
        if (picture) {
          statement(db, 'INSERT OR REPLACE INTO images (owner, mime, data) VALUES (?, ?, ?)').run(
            `album:${albumId}`,
            picture.mime,
            Buffer.from(picture.data),
          )
        }
      }
    }
    const empty = statement(
      db,
      `SELECT id FROM playlists p WHERE p.kind = 'album' AND p.source = 'library'
       AND NOT EXISTS (SELECT 1 FROM songs s WHERE s.album_id = p.id)`,
    ).all() as Array<{ id: number }>
    for (const { id } of empty) {
      search.remove('album', id)
      statement(db, 'DELETE FROM images WHERE owner = ?').run(`album:${id}`)
      statement(db, 'DELETE FROM playlists WHERE id = ?').run(id)
    }
  })
}
