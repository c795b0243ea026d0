/**
 * Listening history between renderer and main (`history:*` channels): types and limits only (no zod; the
 * schemas are in `./history-schemas`, main only).
 */

/** One listen, with what "Recently played" shows offline. Times are epoch milliseconds. */
export interface Listen {
  listenedAt: number
  sourceId: string
  songId: string
  title: string
  artists: string[]
  album?: string
  albumId?: string
  durationMs: number
  /** The cover's http(s) address. */
  cover?: string
  /** Autoplay added the song, not the person (Last.fm's `chosenByUser=0`). */
  autoplay?: boolean
}
/** A stored listen; `id` orders listens of the same millisecond. */
export interface HistoryEntry extends Listen {
  id: number
}
/** Where a page of history starts: just older than this listen. */
export interface HistoryCursor {
  at: number
  id: number
}
export interface HistoryPage {
  /** Every listen kept (written and waiting). */
  total: number
  rows: HistoryEntry[]
  /** The next (older) page starts here; absent on the last page. */
  next?: HistoryCursor
}
export interface HistoryState {
  count: number
  /** A private session: nothing is recorded. */
  private: boolean
  /** Listens kept in memory because the disk refused them (full): written once it takes them. */
  waiting: number
}
export interface HistoryImportResult {
  added: number
  /** Already in history (same time, source and song). */
  skipped: number
}

/** The largest page asked at once. */
export const HISTORY_PAGE_MAX = 500
/** An import larger than this (characters of JSON) is refused before it is read. */
export const HISTORY_IMPORT_MAX_CHARS = 64 * 1024 * 1024
/** An import with more listens than this is refused. */
export const HISTORY_IMPORT_MAX_LISTENS = 500_000
/** NeteaseMusicAdapter's `/song/recommend` placeholder (a 4-second song): never a listen. */
export const PLACEHOLDER_SONG_ID = 'free-app'

/** The spans "Your listening, in pictures" shows: the last 7, 30 or 365 days, or all of history. */
export const HISTORY_STATS_RANGES = ['week', 'month', 'year', 'all'] as const
export type HistoryStatsRange = (typeof HISTORY_STATS_RANGES)[number]
/** How many songs, artists and albums each top list holds. */
export const HISTORY_STATS_TOP = 10
export interface HistoryStatsSong {
  sourceId: string
  songId: string
  title: string
  artists: string[]
  album?: string
  albumId?: string
  cover?: string
  durationMs: number
  listens: number
}
export interface HistoryStatsArtist {
  name: string
  listens: number
  /** Time listened to the artist's songs. */
  ms: number
}
export interface HistoryStatsAlbum {
  album: string
  albumId?: string
  /** The artists of its latest listen. */
  artists: string[]
  cover?: string
  listens: number
}
/** One day with listens (days without are left out); `day` counts days since 1970-01-01 in local time. */
export interface HistoryStatsDay {
  day: number
  listens: number
  ms: number
}
export interface HistoryStats {
  range: HistoryStatsRange
  /** Listens from this time on (epoch ms); 0 for all time. */
  since: number
  listens: number
  /** Time listened: the length of every song heard, summed. */
  listenedMs: number
  topSongs: HistoryStatsSong[]
  topArtists: HistoryStatsArtist[]
  topAlbums: HistoryStatsAlbum[]
  /** Oldest first. */
  days: HistoryStatsDay[]
}
