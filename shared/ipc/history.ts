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
