import { artistNames } from '@shared/api/artist-names'
import { collectionSongSchema, COLLECTION_MAX_SONGS } from '@shared/ipc/schemas'
import type { CollectionFormat, CollectionPlaylist, CollectionSong } from '@shared/ipc/contract'
import { songLink, songIdFromLink } from '@shared/links'

/**
 * The user's playlists as files: extended M3U (UTF-8, `.m3u8`) for other players and people, and JSON
 * for a copy that keeps everything. Pure functions: the service reads and writes, these only convert.
 */

export const JSON_FORMAT_TAG = 'cadence-playlist'

export function toJson(playlist: CollectionPlaylist): string {
  return `${JSON.stringify(
    { format: JSON_FORMAT_TAG, version: 1, name: playlist.name, songs: playlist.songs },
    null,
    2,
  )}\n`
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim()

/**
 * `#EXTINF:<seconds>,<artists> - <title>` and the song's address at its own data source
 * (`<source>/song/detail?id=…`, the spec's endpoint for one song), one entry per song. `sourceUrl` gives a
 * source's address (undefined for one no longer listed: a `cadence:` link).
 */
export function toM3u8(
  playlist: CollectionPlaylist,
  sourceUrl: (sourceId: string | undefined) => string | undefined,
): string {
  const lines = ['#EXTM3U', `#PLAYLIST:${oneLine(playlist.name)}`]
  for (const song of playlist.songs) {
    const seconds = song.duration === undefined ? -1 : Math.round(song.duration / 1000)
    const artists = artistNames(song)
    lines.push(`#EXTINF:${seconds},${oneLine(artists ? `${artists} - ${song.name}` : song.name)}`)
    if (song.album?.name) lines.push(`#EXTALB:${oneLine(song.album.name)}`)
    lines.push(songLink(sourceUrl(song.sourceId), song.id))
  }
  return `${lines.join('\n')}\n`
}

/** A song an M3U8 file names: its id, and what the file says about it for when it cannot be looked up. */
export interface M3uEntry {
  id: string
  title?: string
  durationMs?: number
}

export interface ParsedPlaylistFile {
  name?: string
  /** Complete songs (JSON). */
  songs: CollectionSong[]
  /** Songs known by id only (M3U8): the service looks them up. */
  entries: M3uEntry[]
  /** Entries that named no song of a data source (a local file path, a bad line). */
  skipped: number
}

export function detectFormat(text: string): CollectionFormat {
  return text.trimStart().startsWith('{') ? 'json' : 'm3u8'
}

export function parsePlaylistFile(text: string, format = detectFormat(text)): ParsedPlaylistFile {
  return format === 'json' ? parseJson(text) : parseM3u8(text)
}

function parseJson(text: string): ParsedPlaylistFile {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    throw new SyntaxError('This is not a playlist file: the JSON cannot be read')
  }
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {}
  if (!Array.isArray(record.songs)) throw new SyntaxError('This is not a playlist file: it has no songs list')
  const songs: CollectionSong[] = []
  let skipped = 0
  for (const value of record.songs.slice(0, COLLECTION_MAX_SONGS)) {
    const parsed = collectionSongSchema.safeParse(value)
    if (parsed.success) songs.push(parsed.data)
    else skipped++
  }
  skipped += Math.max(0, record.songs.length - COLLECTION_MAX_SONGS)
  const name = typeof record.name === 'string' ? record.name : undefined
  return { name, songs, entries: [], skipped }
}

function parseM3u8(text: string): ParsedPlaylistFile {
  const entries: M3uEntry[] = []
  let name: string | undefined
  let skipped = 0
  let info: { title?: string; durationMs?: number } = {}
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.trim()
    if (!line) continue
    if (line.startsWith('#')) {
      if (line.startsWith('#PLAYLIST:')) name = line.slice('#PLAYLIST:'.length).trim() || name
      const extinf = /^#EXTINF:\s*(-?\d+(?:\.\d+)?)[^,]*,(.*)$/.exec(line)
      if (extinf) {
        const seconds = Number(extinf[1])
        info = { title: extinf[2].trim() || undefined, durationMs: seconds >= 0 ? seconds * 1000 : undefined }
      }
      continue
    }
    const id = songIdFromLink(line)
    if (id !== undefined && entries.length < COLLECTION_MAX_SONGS) entries.push({ id, ...info })
    else skipped++
    info = {}
  }
  return { name, songs: [], entries, skipped }
}

/** A song from an M3U8 line alone (its data source could not be asked): the title as the file gives it. */
export function songFromEntry(entry: M3uEntry): CollectionSong {
  return {
    id: entry.id,
    name: entry.title ?? '',
    tns: [],
    artists: [],
    duration: entry.durationMs,
  }
}
