/** Settings → Music on this computer: the chosen folders and what the built-in library made of them. */

/** A file of a chosen folder the library could not read, and why. */
export interface UnreadableFile {
  path: string
  error: string
}

export interface MusicFolder {
  path: string
  /** Songs imported from it; null before its first import finished. */
  songs: number | null
  /** When its last import finished (ms since the epoch); null before the first. */
  scannedAt: number | null
  /** The folder was not there at the last import: its songs are kept, unavailable. */
  missing: boolean
  /** Files it could not read (at most `MAX_UNREADABLE_SHOWN`), with the reason. */
  unreadable: UnreadableFile[]
  /** How many files it could not read in all. */
  unreadableCount: number
}

export const MAX_UNREADABLE_SHOWN = 50

export interface MusicFoldersState {
  folders: MusicFolder[]
  /** An import running now: files found so far, and read (or skipped as unchanged) so far. */
  importing: { found: number; read: number } | null
  /** What the last import has to say as a whole (the file cap reached, cancelled), else null. */
  message: string | null
}

/** What the built-in data source reports about its import (utility process → main). */
export type LibraryReport =
  | { type: 'library-progress'; found: number; read: number }
  | { type: 'library-done'; folders: MusicFolder[]; message: string | null }
