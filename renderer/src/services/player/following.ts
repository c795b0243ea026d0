import type { Song } from '@shared/api/models'
import { inAlbumOrder } from '@shared/player/album-order'
import type { QueueEntry } from '@shared/player/queue'
import { isGapless } from './player-output'
import type { PlayerOutput } from './audio/player-output'
import { playInAlbumOrder } from './audio/replay-gain'
import type { TrackInfo } from './audio/gapless'
import type { EngineQueue } from './engine-types'
import type { Resolution } from './resolve-cache'

/**
 * Tells a gapless output which song follows the current one when it ends (none for repeat one), once
 * that song is resolved; a newer load (`generation`) or a queue that moved meanwhile leaves it be.
 */
export function createFollowing(deps: {
  queue: EngineQueue
  resolveSong: (song: Song) => Promise<Resolution>
  output: () => PlayerOutput | undefined
  generation: () => number
}) {
  return function prepareFollowing() {
    const output = deps.output()
    if (!isGapless(output)) return
    const q = deps.queue
    const following = q.peekAdvance?.()
    const current = q.currentEntry
    if (
      !following ||
      !current ||
      following.key === current.key ||
      following.item.privilege?.playable === false
    ) {
      output.prepare(undefined)
      return
    }
    const mine = deps.generation()
    // The album rule of the crossfade: none between consecutive tracks of one album.
    const songs = { current: trackInfo(current.item), next: trackInfo(following.item) }
    deps.resolveSong(following.item).then(
      (resolution) => {
        if (mine === deps.generation() && q.peekAdvance?.()?.key === following.key) {
          markAlbumOrder(resolution.url, q, following.key)
          output.prepare(resolution.url, songs)
        }
      },
      () => undefined,
    )
  }
}

/** What the crossfade's album rule needs of a song: its album (track numbers are not consulted). */
function trackInfo(song: Song): TrackInfo {
  return { albumId: song.album?.id }
}

/**
 * Tells the gain stage whether the queue's entry `key`, to play from `url`, plays in its album's order
 * (between its neighbours in the play order): ReplayGain's album mode.
 */
export function markAlbumOrder(url: string | undefined, queue: EngineQueue, key: string): void {
  const entries = queue.entries as readonly QueueEntry<Song>[]
  const at = entries.findIndex((entry) => entry.key === key)
  if (!url || at < 0) return
  playInAlbumOrder(url, inAlbumOrder(entries[at - 1]?.item, entries[at].item, entries[at + 1]?.item))
}
