import { getMeta, setMeta } from '../db/meta'
import type { DB } from '../db/sqlite'
import { transaction } from '../db/sqlite'
import { createUser } from '../db/users'
import { SearchIndexer } from '../db/search-index'
import { DEMO_BITRATES, wavSize } from '../audio/formats'
import { Rng, hashString } from '../audio/prng'
import { makeLyrics, type Language } from './lyrics'
import {
  ADJECTIVES,
  EDITORIAL_PLAYLISTS,
  FIRST_NAMES,
  JA_FAMILY,
  JA_GIVEN,
  JA_NOUNS,
  JA_TITLES,
  LAST_NAMES,
  NOUNS,
  PREPOSITIONS,
  VERBS,
  ZH_FAMILY,
  ZH_GIVEN,
  ZH_NOUNS,
  ZH_TITLES,
} from './words'

/** Size of the one huge playlist a catalogue of at least this many songs gets. */
export const BIG_PLAYLIST_SONGS = 10_000
/** And of a second, ten times larger, in a catalogue of at least this many songs (`--demo 100000`). */
export const HUGE_PLAYLIST_SONGS = 100_000

/** Fixed "now" of the demo world, so that release dates do not depend on when it was generated. */
export const DEMO_EPOCH = Date.UTC(2025, 5, 1)
const DAY = 86_400_000

export const UNPLAYABLE_REASONS = [
  'Not available in your region',
  'Removed at the request of the rights holder',
]

interface Title {
  name: string
  tns: string[]
}

function fill(pattern: string, values: Record<string, string>): string {
  return pattern.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '')
}

function englishTitle(rng: Rng): string {
  switch (rng.int(0, 4)) {
    case 0:
      return `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`
    case 1:
      return `${rng.pick(NOUNS)} of ${rng.pick(NOUNS)}`
    case 2:
      return `The ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`
    case 3:
      return `${rng.pick(VERBS)} ${rng.pick(PREPOSITIONS)} the ${rng.pick(NOUNS)}`
    default:
      return rng.pick(NOUNS)
  }
}

function cjkTitle(rng: Rng, language: 'ja' | 'zh'): { name: string; roman: string; english: string } {
  const nouns = language === 'ja' ? JA_NOUNS : ZH_NOUNS
  const [p, r, e] = rng.pick(language === 'ja' ? JA_TITLES : ZH_TITLES)
  const a = rng.pick(nouns)
  let b = rng.pick(nouns)
  if (b === a) b = nouns[(nouns.indexOf(a) + 1) % nouns.length]
  return {
    name: fill(p, { a: a[0], b: b[0] }),
    roman: fill(r, { a: a[1], b: b[1] }),
    english: fill(e, { A: a[2], B: b[2] }),
  }
}

function songTitle(rng: Rng, language: Language, index: number): Title {
  if (language === 'en') {
    const name = englishTitle(rng)
    return { name, tns: rng.chance(0.06) ? [`${name} (Radio Edit)`] : [] }
  }
  // The very first CJK songs carry names people will search for.
  if (index === 1) return { name: '星空', tns: ['Starry Sky'] }
  if (index === 2) return { name: '夜に駆ける夢', tns: ['Racing into the Night Dream'] }
  const t = cjkTitle(rng, language)
  return { name: t.name, tns: rng.chance(0.8) ? [t.english] : [] }
}

function artistName(rng: Rng, language: Language): string {
  if (language === 'ja') return `${rng.pick(JA_FAMILY)}${rng.pick(JA_GIVEN)}`
  if (language === 'zh') return `${rng.pick(ZH_FAMILY)}${rng.pick(ZH_GIVEN)}`
  return rng.chance(0.5)
    ? `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`
    : `The ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`
}

function pickLanguage(rng: Rng): Language {
  const r = rng.next()
  return r < 0.55 ? 'en' : r < 0.8 ? 'ja' : 'zh'
}

function bitratesFor(rng: Rng): number[] {
  const r = rng.next()
  if (r < 0.25) return [128000, 192000]
  if (r < 0.6) return [128000, 192000, 320000]
  return [...DEMO_BITRATES]
}

export interface DemoSummary {
  songs: number
  artists: number
  albums: number
  playlists: number
}

/**
 * Fills an empty catalogue with `n` demo songs. Deterministic: the same `n` always gives the same rows,
 * names, lyrics and audio seeds. Runs in one transaction with prepared statements (100k songs in seconds).
 */
export function generateDemo(db: DB, n: number, ownerId: number): DemoSummary {
  const existing = getMeta(db, 'demo_songs')
  if (existing !== undefined) {
    return { songs: Number(existing), artists: 0, albums: 0, playlists: 0 }
  }
  const rng = new Rng(hashString(`cadence-demo-v1:${n}`))
  const search = new SearchIndexer(db)
  const artistCount = Math.min(n, Math.max(24, Math.ceil(n / 12)))
  const albumCount = Math.min(n, Math.max(24, Math.ceil(n / 8)))

  const insertArtist = db.prepare('INSERT INTO artists (name, description, source) VALUES (?, ?, ?)')
  const insertAlbum = db.prepare(
    `INSERT INTO playlists (name, type, kind, description, artist_id, released_at, created_at, source)
     VALUES (?, 'album', 'album', ?, ?, ?, ?, 'demo')`,
  )
  const insertSong = db.prepare(
    `INSERT INTO songs (name, tns, album_id, track_no, duration_ms, playable, reason, seed, tempo, play_count,
       like_count, lyric_normal, lyric_translation, lyric_transliteration, lyric_wordforword, source, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'demo', ?)`,
  )
  const insertSongArtist = db.prepare(
    'INSERT INTO song_artists (song_id, artist_id, position) VALUES (?, ?, ?)',
  )
  const insertFile = db.prepare(
    "INSERT INTO song_files (song_id, bitrate, size, md5, path, mime) VALUES (?, ?, ?, NULL, NULL, 'audio/wav')",
  )
  const insertPlaylist = db.prepare(
    `INSERT INTO playlists (name, type, kind, description, creator_id, rule, created_at, source)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'demo')`,
  )
  const insertPlaylistSong = db.prepare(
    'INSERT OR IGNORE INTO playlist_songs (playlist_id, song_id, position) VALUES (?, ?, ?)',
  )

  return transaction(db, () => {
    // Artists.
    const artists: Array<{ id: number; name: string; language: Language }> = []
    const taken = new Set<string>()
    for (let i = 0; i < artistCount; i++) {
      const language = pickLanguage(rng)
      let name = artistName(rng, language)
      for (let k = 2; taken.has(name); k++)
        name = `${artistName(rng, language)}${language === 'en' ? ' ' : ''}${k}`
      taken.add(name)
      const description =
        language === 'en'
          ? `${name} makes ${rng.pick(ADJECTIVES).toLowerCase()} songs about ${rng.pick(NOUNS).toLowerCase()}.`
          : language === 'ja'
            ? `${name}は${rng.pick(JA_NOUNS)[0]}をテーマに歌うシンガー。`
            : `${name}，用音乐描写${rng.pick(ZH_NOUNS)[0]}的歌手。`
      const id = Number(insertArtist.run(name, description, 'demo').lastInsertRowid)
      artists.push({ id, name, language })
      search.add('artist', id, name)
    }

    // Albums: every artist gets one, the rest go to random artists.
    const albums: Array<{ id: number; name: string; artist: (typeof artists)[number]; released: number }> = []
    for (let i = 0; i < albumCount; i++) {
      const artist = i < artists.length ? artists[i] : rng.pick(artists)
      const base =
        artist.language === 'en' ? englishTitle(rng) : cjkTitle(rng, artist.language as 'ja' | 'zh').name
      const suffix = rng.chance(0.2) ? (artist.language === 'en' ? ' EP' : ' (EP)') : ''
      const name = base + suffix
      const released = DEMO_EPOCH - rng.int(0, 1100) * DAY
      const description = `${name} by ${artist.name}.`
      const id = Number(insertAlbum.run(name, description, artist.id, released, released).lastInsertRowid)
      albums.push({ id, name, artist, released })
      search.add('album', id, name, artist.name)
    }

    // Songs, in contiguous blocks per album.
    const songLanguages: Language[] = []
    let cjkIndex = 0
    let trackNo = 0
    let lastAlbum = -1
    for (let i = 0; i < n; i++) {
      const album = albums[Math.floor((i * albums.length) / n)]
      trackNo = album.id === lastAlbum ? trackNo + 1 : 1
      lastAlbum = album.id
      const language: Language = rng.chance(0.8) ? album.artist.language : 'en'
      const title = songTitle(rng, language, language === 'en' ? 0 : ++cjkIndex)
      const duration = rng.int(15000, 45000)
      const tempo = rng.int(80, 132)
      const seed = rng.seed()
      const unplayable = i % 37 === 5
      const plays = Math.floor(Math.exp(rng.next() * 9.5))
      const likes = Math.floor(plays * rng.next() * 0.05)
      const hasLyrics = i % 10 !== 9
      const lyrics = hasLyrics
        ? makeLyrics(new Rng(seed ^ 0x5bd1e995), language, duration, tempo, {
            translation: rng.chance(0.6),
            wordTimed: i % 25 === 3,
          })
        : undefined
      const rates = bitratesFor(rng)
      const id = Number(
        insertSong.run(
          title.name,
          title.tns.length > 0 ? JSON.stringify(title.tns) : null,
          album.id,
          trackNo,
          duration,
          unplayable ? 0 : 1,
          unplayable ? UNPLAYABLE_REASONS[Math.floor(i / 37) % UNPLAYABLE_REASONS.length] : null,
          seed,
          tempo,
          plays,
          likes,
          lyrics?.normal ?? null,
          lyrics?.translation ?? null,
          lyrics?.transliteration ?? null,
          lyrics?.wordforword ?? null,
          album.released,
        ).lastInsertRowid,
      )
      insertSongArtist.run(id, album.artist.id, 0)
      let artistNames = album.artist.name
      if (rng.chance(0.12)) {
        const feat = rng.pick(artists)
        if (feat.id !== album.artist.id) {
          insertSongArtist.run(id, feat.id, 1)
          artistNames += ' ' + feat.name
        }
      }
      if (!unplayable) for (const br of rates) insertFile.run(id, br, wavSize(duration, br))
      search.add('song', id, [title.name, ...title.tns].join(' '), `${artistNames} ${album.name}`)
      songLanguages.push(language)
    }
    const firstSongId = (
      db.prepare("SELECT MIN(id) AS id FROM songs WHERE source = 'demo'").get() as { id: number }
    ).id
    const pickSongs = (count: number, want: 'any' | 'cjk' | 'en'): number[] => {
      const chosen = new Set<number>()
      const target = Math.min(count, n)
      for (let attempts = 0; chosen.size < target && attempts < target * 20; attempts++) {
        const i = rng.int(0, n - 1)
        const lang = songLanguages[i]
        if (want === 'cjk' && lang === 'en' && attempts < target * 10) continue
        if (want === 'en' && lang !== 'en' && attempts < target * 10) continue
        chosen.add(firstSongId + i)
      }
      return [...chosen]
    }
    let playlists = 0
    const addPlaylist = (
      name: string,
      type: 'normal' | 'dj',
      kind: 'user' | 'editorial' | 'chart',
      description: string,
      creator: number,
      songs: number[],
      rule: string | null = null,
    ) => {
      const created = DEMO_EPOCH - rng.int(0, 400) * DAY
      const id = Number(
        insertPlaylist.run(name, type, kind, description, creator, rule, created).lastInsertRowid,
      )
      songs.forEach((songId, pos) => insertPlaylistSong.run(id, songId, pos))
      search.add('playlist', id, name, description)
      playlists++
    }

    // Users and their playlists.
    const editors = createUser(db, 'Cadence Editors', {
      description: 'Playlists picked by the Cadence team.',
    })
    const mika = createUser(db, 'Mika', { description: 'Night owl, city pop collector.' })
    const leo = createUser(db, 'Leo', { description: 'Runs every morning.' })
    addPlaylist(
      'Morning Run',
      'normal',
      'user',
      'Fast songs for the first kilometre.',
      ownerId,
      pickSongs(25, 'en'),
    )
    addPlaylist('Late Night Coding', 'normal', 'user', 'Quiet focus.', ownerId, pickSongs(30, 'any'))
    addPlaylist('夜の散歩', 'normal', 'user', '夜に歩きながら聴きたい曲。', ownerId, pickSongs(20, 'cjk'))
    addPlaylist('Tokyo After Dark', 'normal', 'user', 'Mika’s night drive.', mika, pickSongs(24, 'cjk'))
    addPlaylist('Vinyl Finds', 'normal', 'user', 'Dug out of crates.', mika, pickSongs(18, 'any'))
    addPlaylist('Tempo 170', 'normal', 'user', 'For long runs.', leo, pickSongs(22, 'en'))
    addPlaylist('Cool Down', 'normal', 'user', 'Stretch and breathe.', leo, pickSongs(15, 'any'))
    const editorialCount = Math.max(EDITORIAL_PLAYLISTS.length, Math.min(60, Math.floor(n / 1000)))
    for (let i = 0; i < editorialCount; i++) {
      const [name, description, want] =
        i < EDITORIAL_PLAYLISTS.length
          ? EDITORIAL_PLAYLISTS[i]
          : ([
              `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} Mix`,
              'A mix picked by the editors.',
              'any',
            ] as const)
      addPlaylist(name, 'normal', 'editorial', description, editors, pickSongs(rng.int(15, 40), want))
    }
    addPlaylist(
      'Radio: Night Waves',
      'dj',
      'editorial',
      'A radio show of quiet songs.',
      editors,
      pickSongs(20, 'any'),
    )
    addPlaylist('Radio: 朝の声', 'dj', 'editorial', '朝のラジオ番組。', editors, pickSongs(20, 'cjk'))

    // Big catalogues (benchmarks) get one 10,000-song playlist: what opening a huge list costs.
    if (n >= BIG_PLAYLIST_SONGS) {
      const all = Array.from({ length: BIG_PLAYLIST_SONGS }, (_, i) => firstSongId + i)
      addPlaylist('The Big Archive', 'normal', 'user', 'Ten thousand songs in one list.', ownerId, all)
    }
    if (n >= HUGE_PLAYLIST_SONGS) {
      const all = Array.from({ length: HUGE_PLAYLIST_SONGS }, (_, i) => firstSongId + i)
      addPlaylist('The Huge Archive', 'normal', 'user', 'A hundred thousand songs in one list.', ownerId, all)
    }

    // Charts are computed from plays, likes and release dates when read (see catalog/charts.ts).
    addPlaylist('Hot 50', 'normal', 'chart', 'The most played and liked songs right now.', editors, [], 'hot')
    addPlaylist('Most Liked', 'normal', 'chart', 'The songs listeners like most.', editors, [], 'liked')
    addPlaylist('New Releases', 'normal', 'chart', 'Songs from the newest albums.', editors, [], 'new')
    addPlaylist('Rising', 'normal', 'chart', 'Recent songs gaining plays fast.', editors, [], 'rising')

    setMeta(db, 'demo_songs', String(n))
    return { songs: n, artists: artists.length, albums: albums.length, playlists }
  })
}
