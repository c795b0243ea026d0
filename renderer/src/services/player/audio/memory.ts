/**
 * How much decoded audio the engine holds: a window ahead of the playhead, decoded in chunks and let go
 * once played, instead of whole songs as PCM (SPlayer's way costs about 21 MB a minute of stereo).
 */

/** Decoded seconds kept ahead of the playhead. */
export const AHEAD_SECONDS = 20
/** Decoded seconds per chunk (one AudioBuffer). */
export const CHUNK_SECONDS = 5

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
