import { audioBufferOf } from './chunk-client'
import type { PreparedSong } from './chunk-client'
import { FRAME_SECONDS, TOLERANCE_SECONDS } from './stretch'

/**
 * A start's first chunk (`track.ts`): small, so a click or a seek is heard at once, and for a pressed
 * row read and decoded before its play is asked (`readFirstChunk`, `pressed-song.ts`); and when a
 * start (a click, a seek) is heard.
 */

/** First chunk small, so a click or a seek is heard at once; the rest in `CHUNK_SECONDS` of the clock. */
const FIRST_CHUNK_SECONDS = 0.25
/**
 * How far ahead of the context's clock a new start (a click, a seek) is scheduled. The clock reads the
 * first frame of the next render (Chromium renders a device buffer's worth, 512 frames, at each device
 * callback), so a start scheduled at it is rendered at the next callback: no lead. A lead only delays
 * the sound (a 10 ms lead is 10 ms more from click to sound in `npm run bench:audio`).
 */
export const START_LEAD_SECONDS = 0

/**
 * A seek while playing keeps the old position playing until the new one's first chunk is scheduled,
 * then crosses from one to the other over `FADE_SECONDS`; should the new position take longer than this
 * (a FLAC seek's probes over a slow network), the old one fades out at this time and the new one fades
 * in when it comes.
 */
export const SEEK_HOLD_SECONDS = 0.06
/** A seek forward within what is scheduled leaves at least this much of it to play while reading on. */
export const SEEK_WITHIN_MARGIN_SECONDS = 1

/** A chunk the chunk worker prepared, made an `AudioBuffer` of the context (none when empty). */
export interface Chunk {
  buffer: AudioBuffer | undefined
  last: boolean
}

/** The chunk worker's answer (`PreparedSong.read`) as a chunk to schedule. */
export const chunkOf = (
  context: BaseAudioContext,
  read: Awaited<ReturnType<PreparedSong['read']>>,
): Chunk | undefined => read && { buffer: audioBufferOf(context, read.planes), last: read.last }

/** A first chunk read and decoded ahead of its start, from the song's beginning, at a speed. */
export interface FirstChunk {
  chunk: Chunk
  source: PreparedSong
  /** The song position the source landed on (`PreparedSong.start`). */
  exact: number
  speed: number
}

/**
 * A pressed song's first chunk (`readFirstChunk`): read before the play, so its length costs the click
 * nothing, and long enough to play on until the play's next read is scheduled. That read is the first
 * beyond the song's head (fetched through the page while it starts the song's now-playing state: 0.8 s
 * in an end-to-end run; a quarter second ran dry, `test/e2e/press-read-on.test.ts`); 1.5 s is what a 320 kb/s
 * MP3's 64 KB head holds, so the press fetches nothing more for it.
 */
const PRIMED_CHUNK_SECONDS = 1.5

/** How much of the song the first chunk of a start reads at `speed` (`seconds` of output). */
export function firstChunkSeconds(speed: number, seconds = FIRST_CHUNK_SECONDS) {
  // Enough for about `seconds` of output once the stretch has kept back its frame.
  return speed === 1 ? seconds : seconds * Math.max(1, speed) + 2 * (FRAME_SECONDS + TOLERANCE_SECONDS)
}

/** Reads and decodes a song's first chunk from its beginning at `speed`, for a start to come. */
export async function readFirstChunk(
  source: PreparedSong,
  speed: number,
  context: BaseAudioContext,
  alive: () => boolean,
): Promise<FirstChunk | undefined> {
  const exact = source.start(0, speed)
  // Nothing read beyond the first chunk until a play asks: a press without a play costs one read.
  const chunk = chunkOf(context, await source.read(firstChunkSeconds(speed, PRIMED_CHUNK_SECONDS)))
  return chunk && alive() ? { chunk, source, exact, speed } : undefined
}

/** Whether a chunk read ahead is the first chunk of a start at `position`, `speed`, from `source`. */
export const fitsStart = (
  ahead: FirstChunk,
  position: number,
  speed: number,
  source: PreparedSong | undefined,
) => position === 0 && ahead.speed === speed && ahead.source === source
