import type { CadenceError } from '@shared/errors'

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
