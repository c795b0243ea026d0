import type { Song } from '../api/models'

/**
 * How long a data source's signed media URL is used once resolved. Main (the media scheme, a played
 * song's copy) and the renderer (its resolves) both resolve a song again past this age.
 */

/** A signed URL older than this is resolved again before use (signed media URLs expire). */
export const SIGNED_URL_MAX_AGE_MS = 4 * 60_000

/** Whether a URL resolved at `at` (ms since epoch) may still be used at `now`. */
export function isUrlFresh(at: number, now: number): boolean {
  return now - at < SIGNED_URL_MAX_AGE_MS
}

/**
 * The rule for a `/song/detail` answer: the signed URL to fetch the song's audio from, or undefined when
 * it cannot be played (the source says so, or gives no URL). Each caller refuses in its own terms.
 */
export function playableUrl(song: Song): string | undefined {
  if (song.privilege?.playable === false) return undefined
  return song.meta?.url || undefined
}
