import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../server/db/open'
import type { DB } from '../../server/db/sqlite'
import { createUser } from '../../server/db/users'
import { SearchIndexer } from '../../server/db/search-index'
import { createCatalog, LIKE_WEIGHT, popularity, popularitySql } from '../../server/catalog'
import type { Catalog } from '../../server/catalog'
import type { UserRow } from '../../server/auth'
import { ApiError } from '../../server/envelope'

const BASE = 'http://cadence.test'
const DAY = 86_400_000

/** A small hand-made catalogue, so every expected order below can be worked out by reading it. */
class Fixture {
  readonly index: SearchIndexer
  constructor(readonly db: DB) {
    this.index = new SearchIndexer(db)
  }

  artist(name: string): number {
    const id = Number(this.db.prepare('INSERT INTO artists (name) VALUES (?)').run(name).lastInsertRowid)
    this.index.add('artist', id, name)
    return id
  }

  album(name: string, artistId: number, releasedAt: number): number {
    const id = Number(
      this.db
        .prepare(
          `INSERT INTO playlists (name, type, kind, artist_id, released_at, created_at)
           VALUES (?, 'album', 'album', ?, ?, 0)`,
        )
        .run(name, artistId, releasedAt).lastInsertRowid,
    )
    this.index.add('album', id, name)
    return id
  }

  song(
    name: string,
    opts: {
      artists: number[]
      album?: number
      track?: number
      plays?: number
      likes?: number
      bitrates?: number[]
      lyric?: string
    },
  ): number {
    const id = Number(
      this.db
        .prepare(
          `INSERT INTO songs (name, album_id, track_no, duration_ms, play_count, like_count, lyric_normal, created_at)
           VALUES (?, ?, ?, 180000, ?, ?, ?, 0)`,
        )
        .run(name, opts.album ?? null, opts.track ?? 0, opts.plays ?? 0, opts.likes ?? 0, opts.lyric ?? null)
        .lastInsertRowid,
    )
    opts.artists.forEach((a, position) =>
      this.db
        .prepare('INSERT INTO song_artists (song_id, artist_id, position) VALUES (?, ?, ?)')
        .run(id, a, position),
    )
    for (const br of opts.bitrates ?? [128000, 320000]) {
      this.db.prepare('INSERT INTO song_files (song_id, bitrate, size) VALUES (?, ?, 1000)').run(id, br)
    }
    this.index.add('song', id, name)
    return id
  }

  playlist(
    name: string,
    kind: 'user' | 'editorial' | 'chart',
    creator: number | null,
    songs: number[] = [],
    rule?: string,
  ): number {
    const id = Number(
      this.db
        .prepare(
          `INSERT INTO playlists (name, type, kind, creator_id, rule, created_at) VALUES (?, 'normal', ?, ?, ?, 0)`,
        )
        .run(name, kind, creator, rule ?? null).lastInsertRowid,
    )
    songs.forEach((s, position) =>
      this.db
        .prepare('INSERT INTO playlist_songs (playlist_id, song_id, position) VALUES (?, ?, ?)')
        .run(id, s, position),
    )
    if (kind !== 'chart') this.index.add('playlist', id, name)
    return id
  }
}

let dir: string
let db: DB
let f: Fixture
let now: number
let catalog: Catalog
let mei: UserRow
let ren: UserRow

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cadence-catalog-'))
  db = openDatabase(dir)
  f = new Fixture(db)
  now = Date.UTC(2026, 0, 10)
  catalog = createCatalog(db, () => now)
  const user = (id: number, name: string): UserRow => ({ id, name, description: null, is_owner: 0 })
  mei = user(createUser(db, 'Mei', { owner: true }), 'Mei')
  ren = user(createUser(db, 'Ren'), 'Ren')
})

afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

const names = (list: Array<{ name: string }>) => list.map((x) => x.name)

function rejection(fn: () => unknown): ApiError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError)
    return error as ApiError
  }
  throw new Error('expected an ApiError')
}

describe('popularity', () => {
  it('counts a like as twenty plays, in code and in SQL alike', () => {
    expect(LIKE_WEIGHT).toBe(20)
    expect(popularity({ play_count: 7, like_count: 3 })).toBe(67)
    const row = db
      .prepare(`SELECT ${popularitySql('s')} AS p FROM (SELECT 7 AS play_count, 3 AS like_count) s`)
      .get() as {
      p: number
    }
    expect(row.p).toBe(67)
  })

  it('refuses to build SQL from anything but an alias', () => {
    expect(() => popularitySql('s; DROP TABLE songs')).toThrow()
  })
})

describe('Catalog', () => {
  describe('songs', () => {
    it('answers songs in the order asked, dropping unknown ids, with absolute cover and avatar URLs', () => {
      const a = f.artist('Aoi')
      const album = f.album('Blue', a, 0)
      const one = f.song('One', { artists: [a], album })
      const two = f.song('Two', { artists: [a] })
      const list = catalog.songs(BASE, [two, 9999, one])
      expect(names(list)).toEqual(['Two', 'One'])
      expect(list[1].album).toEqual({ id: album, name: 'Blue', cover: `${BASE}/media/cover/album/${album}` })
      expect(list[0].artists).toEqual([{ id: a, name: 'Aoi', avatar: `${BASE}/media/cover/artist/${a}` }])
      expect(list[0].album).toBeUndefined()
    })

    it('lists artists in credit order and bitrates ascending, the highest as maxBitrate', () => {
      const a = f.artist('Aoi')
      const b = f.artist('Bea')
      const duet = f.song('Duet', { artists: [b, a], bitrates: [320000, 96000, 192000] })
      const other = f.song('Other', { artists: [a] })
      for (const song of [catalog.songs(BASE, [duet, other])[0], catalog.song(BASE, duet)?.song]) {
        expect(names(song?.artists ?? [])).toEqual(['Bea', 'Aoi'])
        expect(song?.privilege).toEqual({
          playable: true,
          bitrates: [96000, 192000, 320000],
          maxBitrate: 320000,
        })
      }
    })

    it('marks a song without a file unplayable, with a reason', () => {
      const silent = f.song('Silent', { artists: [f.artist('Aoi')], bitrates: [] })
      const { song } = catalog.song(BASE, silent)!
      expect(song.privilege.playable).toBe(false)
      expect(song.privilege.reason).toBeTruthy()
      expect(song.privilege.maxBitrate).toBe(0)
    })

    it('returns only the lyric kinds a song has', () => {
      const a = f.artist('Aoi')
      const sung = f.song('Sung', { artists: [a], lyric: '[00:01.000]la' })
      expect(catalog.song(BASE, sung)?.lyric).toEqual({ normal: '[00:01.000]la' })
      expect(catalog.song(BASE, f.song('Hum', { artists: [a] }))?.lyric).toEqual({})
      expect(catalog.song(BASE, 4242)).toBeUndefined()
    })
  })

  describe('likes', () => {
    it('counts a like once per user, and an unlike takes it back', () => {
      const s = f.song('Song', { artists: [f.artist('Aoi')] })
      const likes = () =>
        (db.prepare('SELECT like_count AS n FROM songs WHERE id = ?').get(s) as { n: number }).n
      catalog.like(mei, s, true)
      catalog.like(mei, s, true)
      catalog.like(ren, s, true)
      expect(likes()).toBe(2)
      expect(catalog.isLiked(mei.id, s)).toBe(true)
      catalog.like(mei, s, false)
      catalog.like(mei, s, false)
      expect(likes()).toBe(1)
      expect(catalog.isLiked(mei.id, s)).toBe(false)
    })

    it('answers 404 for a song that does not exist', () => {
      expect(rejection(() => catalog.like(mei, 777, true)).status).toBe(404)
    })

    it('shows a liked-songs playlist to its owner only, newest like first', () => {
      const a = f.artist('Aoi')
      const first = f.song('First', { artists: [a] })
      const second = f.song('Second', { artists: [a] })
      catalog.like(mei, first, true)
      now += 1000
      catalog.like(mei, second, true)
      const liked = catalog.userPlaylists(BASE, mei.id, mei, 10, 0).find((p) => p.meta?.kind === 'liked')!
      expect(names(catalog.playlistDetail(BASE, liked.id, mei).songs ?? [])).toEqual(['Second', 'First'])
      expect(rejection(() => catalog.playlistDetail(BASE, liked.id, null)).status).toBe(401)
      expect(rejection(() => catalog.playlistDetail(BASE, liked.id, ren)).status).toBe(403)
      // Nor is it listed among Mei's playlists for anyone else.
      expect(catalog.userPlaylists(BASE, mei.id, ren, 10, 0).some((p) => p.meta?.kind === 'liked')).toBe(
        false,
      )
      expect(catalog.userPlaylists(BASE, mei.id, null, 10, 0).some((p) => p.meta?.kind === 'liked')).toBe(
        false,
      )
    })
  })

  describe('rankings', () => {
    it('orders the hot chart by popularity, leaving unplayable songs out', () => {
      const a = f.artist('Aoi')
      f.song('Played', { artists: [a], plays: 100 })
      f.song('Loved', { artists: [a], plays: 10, likes: 5 }) // 110
      f.song('Quiet', { artists: [a], plays: 1 })
      const gone = f.song('Gone', { artists: [a], plays: 10_000 })
      db.prepare('UPDATE songs SET playable = 0 WHERE id = ?').run(gone)
      const chart = f.playlist('Hot', 'chart', null, [], 'hot')
      const detail = catalog.playlistDetail(BASE, chart, null)
      expect(names(detail.songs ?? [])).toEqual(['Loved', 'Played', 'Quiet'])
      expect(detail.meta).toMatchObject({ kind: 'chart', rule: 'hot' })
      expect(detail.size).toBe(3)
    })

    it('keeps a computed chart for 30 seconds unless told to forget', () => {
      const a = f.artist('Aoi')
      const x = f.song('X', { artists: [a], plays: 50 })
      f.song('Y', { artists: [a], plays: 40 })
      expect(catalog.chartSongIds('hot')).toEqual([x, x + 1])
      db.prepare('UPDATE songs SET play_count = 0 WHERE id = ?').run(x)
      now += 29_999
      expect(catalog.chartSongIds('hot')).toEqual([x, x + 1])
      now += 1
      expect(catalog.chartSongIds('hot')).toEqual([x + 1, x])
      db.prepare('UPDATE songs SET play_count = 100 WHERE id = ?').run(x)
      catalog.invalidate()
      expect(catalog.chartSongIds('hot')).toEqual([x, x + 1])
    })

    it("shows an artist's most popular songs first and their albums newest first", () => {
      const a = f.artist('Aoi')
      const old = f.album('Old', a, Date.UTC(2020, 0, 1))
      const fresh = f.album('Fresh', a, Date.UTC(2025, 0, 1))
      f.song('Hit', { artists: [a], album: old, plays: 5, likes: 10 }) // 205
      f.song('Filler', { artists: [a], album: old, plays: 200 }) // 200
      f.song('Single', { artists: [a], album: fresh, plays: 201 }) // 201
      const detail = catalog.artistDetail(BASE, a)
      expect(names(detail.songs ?? [])).toEqual(['Hit', 'Single', 'Filler'])
      expect(detail.meta?.songCount).toBe(3)
      expect(names(detail.meta?.albums as Array<{ name: string }>)).toEqual(['Fresh', 'Old'])
      expect((detail.meta?.albums as Array<{ size: number }>).map((x) => x.size)).toEqual([1, 2])
      expect(rejection(() => catalog.artistDetail(BASE, 999)).status).toBe(404)
    })

    it('recommends artists by the summed popularity of their songs', () => {
      const quiet = f.artist('Quiet')
      const loved = f.artist('Loved')
      f.song('q', { artists: [quiet], plays: 300 })
      f.song('l', { artists: [loved], plays: 100, likes: 11 }) // 320
      expect(names(catalog.recommendArtists(BASE, 10))).toEqual(['Loved', 'Quiet'])
    })

    it("recommends playlists by their songs' average popularity, leaving out the viewer's own", () => {
      const a = f.artist('Aoi')
      const big = f.song('big', { artists: [a], plays: 1000 })
      const small = f.song('small', { artists: [a], plays: 10 })
      f.playlist('Mixed', 'editorial', null, [big, small]) // 505
      f.playlist('Mei’s best', 'user', mei.id, [big]) // 1000
      f.playlist('Small', 'user', ren.id, [small]) // 10
      expect(names(catalog.recommendPlaylists(BASE, 10, null))).toEqual(['Mei’s best', 'Mixed', 'Small'])
      expect(names(catalog.recommendPlaylists(BASE, 10, mei))).toEqual(['Mixed', 'Small'])
    })

    it('recommends songs the viewer has not liked, the same list all day and another the next', () => {
      const a = f.artist('Aoi')
      const ids = Array.from({ length: 40 }, (_, i) => f.song(`s${i}`, { artists: [a], plays: 100 + i }))
      catalog.like(mei, ids[0], true)
      const today = catalog.recommendSongs(BASE, 20, mei).map((s) => s.id)
      expect(today).toHaveLength(20)
      expect(today).not.toContain(ids[0])
      expect(new Set(today).size).toBe(20)
      now += 3_600_000
      catalog.invalidate()
      expect(catalog.recommendSongs(BASE, 20, mei).map((s) => s.id)).toEqual(today)
      now += DAY
      expect(catalog.recommendSongs(BASE, 20, mei).map((s) => s.id)).not.toEqual(today)
    })
  })

  describe('search', () => {
    it('ranks an exact name first, then a prefix, then any other match', () => {
      const a = f.artist('Aoi')
      f.song('The Night Sky Again', { artists: [a], plays: 1000 })
      f.song('Night Sky', { artists: [a] })
      f.song('Night Sky Waltz', { artists: [a], plays: 10 })
      expect(names(catalog.search(BASE, 'night sky', 10).songs)).toEqual([
        'Night Sky',
        'Night Sky Waltz',
        'The Night Sky Again',
      ])
    })

    it('puts the more popular of equally good song matches first', () => {
      const a = f.artist('Aoi')
      f.song('Rain on glass', { artists: [a], plays: 10 })
      f.song('Rain on tin', { artists: [a], plays: 1, likes: 1 }) // 21
      expect(names(catalog.search(BASE, 'rain', 10).songs)).toEqual(['Rain on tin', 'Rain on glass'])
    })

    it('finds one- and two-character terms, such as a single CJK character', () => {
      const a = f.artist('Aoi')
      f.song('夜空', { artists: [a] })
      f.song('星の夜', { artists: [a] })
      f.song('朝', { artists: [a] })
      expect(names(catalog.search(BASE, '夜', 10).songs).sort()).toEqual(['夜空', '星の夜'].sort())
      expect(names(catalog.search(BASE, '夜空', 10).songs)).toEqual(['夜空'])
    })

    it('treats full-text-search syntax in the keywords as plain text', () => {
      const a = f.artist('Aoi')
      f.song('Rock "n" Roll', { artists: [a] })
      f.song('Rock AND Roll', { artists: [a] })
      expect(names(catalog.search(BASE, '"n"', 10).songs)).toEqual(['Rock "n" Roll'])
      expect(names(catalog.search(BASE, 'NOT roll', 10).songs)).toEqual([])
      expect(catalog.search(BASE, 'roll*', 10).songs).toEqual([])
      expect(catalog.search(BASE, '   ', 10)).toEqual({ songs: [], albums: [], artists: [], playlists: [] })
    })

    it('answers albums, artists and playlists with their shapes', () => {
      const a = f.artist('Harbor Lights')
      const album = f.album('Harbor Songs', a, 0)
      f.song('Pier', { artists: [a], album })
      f.playlist('Harbor mix', 'user', mei.id)
      const result = catalog.search(BASE, 'harbor', 10)
      expect(result.artists).toEqual([
        { id: a, name: 'Harbor Lights', avatar: `${BASE}/media/cover/artist/${a}` },
      ])
      expect(result.albums).toEqual([
        {
          id: album,
          name: 'Harbor Songs',
          cover: `${BASE}/media/cover/album/${album}`,
          size: 1,
          artists: [{ id: a, name: 'Harbor Lights', avatar: `${BASE}/media/cover/artist/${a}` }],
        },
      ])
      expect(names(result.playlists)).toEqual(['Harbor mix'])
      expect(result.playlists[0].creator?.name).toBe('Mei')
    })
  })

  describe('playlists', () => {
    it('lists charts as toplists and answers 404 for an unknown playlist or user', () => {
      f.playlist('Hot', 'chart', null, [], 'hot')
      f.playlist('Liked', 'chart', null, [], 'liked')
      expect(names(catalog.toplists(BASE, 10))).toEqual(['Hot', 'Liked'])
      expect(rejection(() => catalog.playlistDetail(BASE, 999, null)).status).toBe(404)
      expect(rejection(() => catalog.userPlaylists(BASE, 999, null, 10, 0)).status).toBe(404)
    })

    it('answers an album as a playlist in track order, with its artist and release date', () => {
      const a = f.artist('Aoi')
      const album = f.album('Blue', a, Date.UTC(2024, 4, 1))
      f.song('Second', { artists: [a], album, track: 2 })
      f.song('First', { artists: [a], album, track: 1 })
      const detail = catalog.playlistDetail(BASE, album, null)
      expect(names(detail.songs ?? [])).toEqual(['First', 'Second'])
      expect(detail.cover).toBe(`${BASE}/media/cover/album/${album}`)
      expect(detail.meta).toMatchObject({ kind: 'album', releasedAt: '2024-05-01T00:00:00.000Z' })
      expect(names(detail.meta?.artists as Array<{ name: string }>)).toEqual(['Aoi'])
    })
  })
})
