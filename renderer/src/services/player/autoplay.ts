import type { Song } from '@shared/api/models'
import type { RepeatMode } from '@shared/player/queue'
import { PLACEHOLDER_SONG_ID } from '@shared/ipc/history'

/**
 * Autoplay's choices, pure (the autoplay store gathers the candidates and adds what this picks): when
 * few songs are left in the queue, more that fit, from the hot songs of the artists just played, then
 * the recommended songs, then the liked songs; never a song already queued, heard in the last hour, one
 * that cannot play or the `free-app` placeholder; offline, only songs on disk.
 */

/** Autoplay adds songs once this many or fewer are left after the current one. */
export const AUTOPLAY_LEFT = 2
/** Songs added at a time. */
export const AUTOPLAY_BATCH = 10
/** A song heard within this long is not chosen again. */
export const AUTOPLAY_HEARD_MS = 3_600_000

/**
 * Whether the queue wants more: the setting on, not repeat-all (the queue plays again), few songs left,
 * and no sleep timer waiting for the end of the queue (songs added would keep the queue from ending).
 */
export function autoplayWanted(input: {
  enabled: boolean
  repeat: RepeatMode
  left: number
  hasSong: boolean
  sleepAtQueueEnd?: boolean
}) {
  return (
    input.enabled &&
    input.hasSong &&
    input.repeat !== 'all' &&
    input.left <= AUTOPLAY_LEFT &&
    !input.sleepAtQueueEnd
  )
}

export interface AutoplayCandidates {
  /** Hot songs of the artists just played, in the order to try. */
  artists: readonly Song[]
  recommended: readonly Song[]
  liked: readonly Song[]
}

export interface AutoplayRules {
  /** Song ids already in the queue. */
  queued: ReadonlySet<string>
  /** Song ids heard in the last hour. */
  heard: ReadonlySet<string>
  /** Offline: the song ids on disk (downloaded or cached); undefined when online. */
  onDisk?: ReadonlySet<string>
  count?: number
}

/** Whether a song may be chosen at all (plays, is no placeholder). */
export function canAutoplay(song: Song): boolean {
  return String(song.id) !== PLACEHOLDER_SONG_ID && song.privilege?.playable !== false
}

export function chooseAutoplay(candidates: AutoplayCandidates, rules: AutoplayRules): Song[] {
  const count = rules.count ?? AUTOPLAY_BATCH
  const chosen: Song[] = []
  const taken = new Set<string>()
  for (const song of [...candidates.artists, ...candidates.recommended, ...candidates.liked]) {
    if (chosen.length >= count) break
    const id = String(song.id)
    if (taken.has(id) || rules.queued.has(id) || rules.heard.has(id) || !canAutoplay(song)) continue
    if (rules.onDisk && !rules.onDisk.has(id)) continue
    taken.add(id)
    chosen.push(song)
  }
  return chosen
}
