import { DataSourceError } from '@shared/errors'
import { MediaCacheError } from '../media-cache'

/** Tries of one song before it is `failed` (waiting for the data source to come back does not count). */
export const MAX_ATTEMPTS = 6
export const BACKOFF_BASE_MS = 2000
export const BACKOFF_MAX_MS = 5 * 60_000

/** Why a try failed, and what to do about it. */
export type Verdict = { kind: 'retry' | 'fatal' | 'offline' | 'disk-full' | 'cancelled'; message: string }

export function judge(error: unknown): Verdict {
  if (error instanceof MediaCacheError) {
    switch (error.reason) {
      case 'disk-full':
        // The disk is full, or would be left with less than Cadence keeps free.
        return { kind: 'disk-full', message: error.message }
      case 'cancelled':
        return { kind: 'cancelled', message: 'Cancelled' }
      case 'corrupt':
        return { kind: 'fatal', message: 'The file did not match its size or checksum, twice' }
      case 'http':
        return error.status === 404
          ? { kind: 'fatal', message: 'The data source has no audio for this song' }
          : { kind: 'retry', message: error.message }
      case 'too-large':
      case 'refused':
        return { kind: 'fatal', message: error.message }
      default:
        return { kind: 'retry', message: error.message }
    }
  }
  if (error instanceof DataSourceError) {
    if (error.kind === 'network' || error.kind === 'timeout')
      return { kind: 'offline', message: error.message }
    if (error.kind === 'cancelled') return { kind: 'cancelled', message: 'Cancelled' }
    if (error.kind === 'http' && (error.status ?? 0) >= 500) return { kind: 'retry', message: error.message }
    if (error.kind === 'unauthorized') return { kind: 'retry', message: error.message }
    return { kind: 'fatal', message: error.message }
  }
  return { kind: 'retry', message: error instanceof Error ? error.message : String(error) }
}

export const backoffMs = (attempts: number) =>
  Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS)

/** The data source does not play the song: the download fails at once. */
export class NotAvailable extends Error {}
