import { codecSource, openDecodable } from './codec-source'
import { prepareChunk } from './chunk-prep'
import { createStretcher } from './stretch'

/**
 * The chunk worker's first-time costs paid while the app is idle (`warmChunkWorker`, at the output's
 * `warm`), not at a song's first press: the worker's start, and one short first chunk read through the
 * same path a song's takes (`chunk-service.ts`: the MP3 container, WebCodecs' decoder, the resampling to
 * the context's rate, the stretch), from a few silent MP3 frames made here.
 */

/** MPEG-1 layer III, 128 kb/s, 44.1 kHz, stereo (as most songs), no CRC: 417 bytes a frame, 1,152 samples. */
const FRAME_HEADER = [0xff, 0xfb, 0x90, 0x00]
const FRAME_BYTES = 417
const FRAMES = 24

/** A few silent MP3 frames (side information all zero: nothing coded, silence decoded). */
function silentMp3(): Uint8Array {
  const bytes = new Uint8Array(FRAME_BYTES * FRAMES)
  for (let f = 0; f < FRAMES; f++) bytes.set(FRAME_HEADER, f * FRAME_BYTES)
  return bytes
}

/** Reads a first chunk of silence at `rate` as a song's is read; answers its frames (0: nothing read). */
export async function warmFirstChunk(rate: number): Promise<number> {
  const bytes = silentMp3()
  const file = {
    head: bytes,
    size: bytes.length,
    read: async (start: number, end: number) => bytes.slice(start, end + 1),
  }
  const container = await openDecodable(file)
  if (!container) return 0
  const source = codecSource(container, file, rate)
  source.seek(0)
  const chunk = await prepareChunk(source, createStretcher(1, source.channels, rate), 0.25, () => true)
  return chunk?.samples[0]?.length ?? 0
}
