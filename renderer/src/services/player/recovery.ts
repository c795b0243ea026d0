import type { CadenceError } from '@shared/errors'

/**
 * Errors that say nothing about the song itself: the data source (or main) is gone, so stop, don't skip
 * (the playback engine's choice on a failed resolve, `engine.ts`).
 */
export function isSourceDown(error: CadenceError): boolean {
  if (error.kind === 'api' || error.kind === 'invalid-response' || error.kind === 'invalid-argument')
    return false
  if (error.kind === 'http') return (error.status ?? 500) >= 500
  return true
}
