/**
 * A WAV source's byte ranges (`pcm-source.ts`) with the next read's range asked beside the current one,
 * when the chunk worker says how long that read will be (`then`, `chunk-service.ts`). After a start or a
 * seek, the read that follows the 0.25 s first chunk has that long to be prepared: its bytes are then on
 * their way with the first chunk's, not asked only once it is answered (a media request alone takes
 * 0.1–0.3 s on a loaded machine).
 */
export function createRangeAhead(fetchRange: (range: string) => Promise<ArrayBuffer>) {
  /** The range asked ahead, and its bytes on their way. */
  let ahead: { range: string; bytes: Promise<ArrayBuffer> } | undefined
  return {
    /** The bytes of `range`: those asked ahead when it is that range, else fetched now. */
    fetch(range: string): Promise<ArrayBuffer> {
      const kept = ahead?.range === range ? ahead.bytes : undefined
      ahead = undefined
      return kept ?? fetchRange(range)
    },
    /** Asks `range` now, for the next `fetch` (its failure is that fetch's). */
    prefetch(range: string) {
      const bytes = fetchRange(range)
      bytes.catch(() => undefined)
      ahead = { range, bytes }
    },
    /** A seek: what was asked ahead is not the next read. */
    forget() {
      ahead = undefined
    },
  }
}
