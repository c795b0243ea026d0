/**
 * How much decoded audio the engine holds: a window ahead of the playhead, decoded in chunks and let go
 * once played, instead of whole songs as PCM (SPlayer's way costs about 21 MB a minute of stereo).
 */

/** Decoded seconds kept ahead of the playhead. */
export const AHEAD_SECONDS = 20
/** Decoded seconds per chunk (one AudioBuffer). */
export const CHUNK_SECONDS = 5

/** The shortest read after a start's first chunk (s of the clock). */
const MIN_READ_SECONDS = 0.25

/**
 * How much of the song (s) the next read takes, when it is asked with `lead` seconds of the clock
 * scheduled ahead of the playhead, at `speed`: at most `CHUNK_SECONDS` of the clock, and at most twice
 * the lead, so after a start (its first chunk plays 0.25 s) the reads grow 0.5, 1, 2, 4, 5 s and each is
 * prepared (fetched, decoded, resampled) well before what is scheduled has played. A 5 s read asked
 * behind a 0.25 s first chunk was prepared too late whenever that took longer than 0.25 s: a gap heard.
 */
export function readSeconds(lead: number, speed: number): number {
  const clock = Math.min(CHUNK_SECONDS, Math.max(MIN_READ_SECONDS, 2 * lead))
  return Math.min(CHUNK_SECONDS * Math.min(1, speed), clock * speed)
}

/** Bytes of float PCM for `seconds` of audio at `sampleRate` with `channels`. */
export function pcmBytes(seconds: number, sampleRate: number, channels: number): number {
  return Math.ceil(seconds * sampleRate) * channels * 4
}

/**
 * The most the engine holds for one song: the window ahead plus the chunk playing, whatever the song's
 * length. For a 10-minute 44.1 kHz stereo song: 25 s ≈ 8.8 MB, against 212 MB for the whole song.
 */
export function heldBytes(songSeconds: number, sampleRate: number, channels: number): number {
  return pcmBytes(Math.min(songSeconds, AHEAD_SECONDS + CHUNK_SECONDS), sampleRate, channels)
}
