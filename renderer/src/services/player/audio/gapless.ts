/**
 * When the next song is prepared and when it starts. Pure: the engine asks and schedules.
 *
 * Gapless: the next song's first frame is scheduled at the audio-clock time where the current song's
 * last frame ends (its start time plus its frame count over its sample rate), so the two meet on the
 * same sample. Crossfade (off by default) overlaps them instead, except between consecutive tracks of
 * one album, which are made to run into each other.
 */

/** Prepare the next song this long before the current one ends: time to fetch, decode and schedule. */
export const PREPARE_AHEAD_SECONDS = 15
export const MIN_CROSSFADE_SECONDS = 1
export const MAX_CROSSFADE_SECONDS = 12

export interface TrackInfo {
  albumId?: string | number
  /** The track's number on its album, when the data source says. */
  trackNumber?: number
}

/** The song playing and the one that follows it, for the crossfade's album rule. */
export interface SongPair {
  current: TrackInfo
  next: TrackInfo
}

/** Whether to start preparing the next song now (`remaining`: seconds left of the current one). */
export function shouldPrepareNext(
  remaining: number,
  prepared: boolean,
  ahead = PREPARE_AHEAD_SECONDS,
): boolean {
  return !prepared && remaining <= ahead
}

/**
 * Crossfade in seconds between `current` and `next`: 0 when off (`setting` 0) or when `next` follows
 * `current` on the same album; otherwise the setting within 1–12 s, and never more than half of the
 * shorter song.
 */
export function crossfadeSeconds(
  setting: number,
  current: TrackInfo & { duration: number },
  next: TrackInfo & { duration: number },
): number {
  if (!(setting > 0)) return 0
  if (sameAlbumInOrder(current, next)) return 0
  const wanted = Math.min(MAX_CROSSFADE_SECONDS, Math.max(MIN_CROSSFADE_SECONDS, setting))
  return Math.max(0, Math.min(wanted, current.duration / 2, next.duration / 2))
}

function sameAlbumInOrder(current: TrackInfo, next: TrackInfo): boolean {
  if (current.albumId === undefined || current.albumId === null || current.albumId !== next.albumId)
    return false
  // Without track numbers, two songs of one album in a row are taken as consecutive.
  if (current.trackNumber === undefined || next.trackNumber === undefined) return true
  return next.trackNumber === current.trackNumber + 1
}

/**
 * The audio-clock time the next song starts: where the current one's last frame ends, less the
 * crossfade. `startedAt` is the clock time of the current song's frame 0 (a resumed or sought song
 * counts back from where it is), `frames`/`sampleRate` its length.
 */
export function nextStartTime(startedAt: number, frames: number, sampleRate: number, crossfade = 0): number {
  return startedAt + frames / sampleRate - crossfade
}
