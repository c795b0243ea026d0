/**
 * How much of a song's file one range fetches while it plays (`frame-decoder.ts` for FLAC, MP3 and AAC,
 * `pcm-source.ts` for WAV). The first two reads after a start fetch what they decode (a start is heard
 * at once, and its second chunk follows in time); each read after them fetches twice as far ahead as the
 * one before, up to `MAX_BLOCK_SECONDS`, so steady playback asks for a range about every half minute
 * instead of at every chunk (each request costs the page, the network stack and main's media handler).
 */

/** The most of the file (s) one range fetches. */
export const MAX_BLOCK_SECONDS = 30
/**
 * The most bytes one range fetches, whatever the bit rate: main reads a cached file's range up to this
 * size in one call (`READ_AT_ONCE_BYTES` in `electron/main/core/media/file-response.ts`).
 */
export const MAX_BLOCK_BYTES = 2 << 20

/** Seconds of the file the `reads`-th read since a start (0: the first) fetches for `seconds` decoded. */
export function blockSeconds(seconds: number, reads: number): number {
  const wanted = seconds + 0.5
  return Math.max(wanted, Math.min(MAX_BLOCK_SECONDS, wanted * 2 ** Math.min(Math.max(0, reads - 1), 8)))
}
