import type { Song } from '@shared/api/models'
import type { CadenceError } from '@shared/errors'
import type { EngineQueue, LoadOptions } from './engine-types'

/**
 * Errors that say nothing about the song itself: the data source (or main) is gone, so stop, don't skip
 * (the playback engine's choice on a failed resolve, `engine.ts`). A timeout or cut-off whose answer had
 * begun (it carries the status) is that song's failure: main found the source there (else it answers the
 * song from the disk or as not available offline), so the song is skipped with the reason and the queue
 * goes on.
 */
export function isSourceDown(error: CadenceError): boolean {
  if (error.kind === 'api' || error.kind === 'invalid-response' || error.kind === 'invalid-argument')
    return false
  if (error.kind === 'http') return (error.status ?? 500) >= 500
  if (error.kind === 'timeout' || error.kind === 'network') return error.status === undefined
  return true
}

/**
 * Moves the queue on from a song that cannot play (manual moves, so that repeat-one moves on too),
 * counting the songs passed; stops once every song was tried. Offline (`playableOffline` answers), the
 * songs that are not on this computer are passed without trying each, so nothing races through the queue.
 */
export function moveOn(
  q: EngineQueue,
  options: LoadOptions,
  playableOffline?: (song: Song) => boolean | undefined,
): { moved: boolean; skipped: number } {
  const move = () => (options.direction === -1 ? q.previous() : q.next())
  let skipped = (options.skipped ?? 0) + 1
  let moved = skipped < q.entries.length && move()
  while (moved && playableOffline?.(q.currentEntry!.item) === false) {
    skipped++
    moved = skipped < q.entries.length && move()
  }
  return { moved, skipped }
}
