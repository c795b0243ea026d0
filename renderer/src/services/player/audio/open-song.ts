import { rangeHeader } from '@shared/http/range'
import { parseWavHeader } from '@shared/audio/codec/wav'
import { openCodecSource } from './codec-source'
import { fileSize, MediaFailure } from './media-load'
import { bufferSource, wavSource } from './pcm-source'
import type { PcmSource } from './pcm-source'

/**
 * Opening a song (`track.ts`): its first bytes say which codec it is. WAV is read by byte ranges
 * (`pcm-source.ts`); FLAC, MP3 and AAC in MP4 by byte ranges decoded by WebCodecs (`codec-source.ts`);
 * another format (or no WebCodecs) is fetched whole and decoded by the browser's `decodeAudioData`.
 */

export const HEADER_BYTES = 64 * 1024

export type LoadMedia = (url: string, range?: string) => Promise<Response>

/** A song's first bytes as the player fetched them, and the file's length (for its loudness analysis). */
export interface SongHead {
  bytes: ArrayBuffer
  size: number
}

export interface OpenedSong {
  source: PcmSource
  duration: number
  /** Read as a stream (WAV, FLAC, MP3, AAC): its loudness can be measured a stretch at a time. */
  streamed: boolean
  head?: SongHead
  /** For a streamed FLAC, MP3 or AAC file: the same song decoded whole, should its decoder fail. */
  wholeInstead?: () => Promise<OpenedSong>
}

export async function openSong(url: string, context: BaseAudioContext, load: LoadMedia): Promise<OpenedSong> {
  const answer = await load(url, rangeHeader(0, HEADER_BYTES - 1))
  const bytes = await answer.arrayBuffer()
  const size = fileSize(answer, bytes.byteLength)
  /** The first bytes are the whole file (a source that answered the range with all of it). */
  const whole = answer.status === 200 && size === bytes.byteLength ? bytes : undefined
  const head = { bytes, size: size ?? bytes.byteLength }
  const layout = parseWavHeader(bytes, size)
  if (layout) {
    const source = wavSource(
      layout,
      context.sampleRate,
      async (range) => (await load(url, range)).arrayBuffer(),
      bytes,
    )
    return { source, duration: layout.frames / layout.sampleRate, streamed: true, head }
  }
  // FLAC, MP3, AAC in MP4: decoded a stretch at a time, the file read by ranges.
  if (size !== undefined) {
    const codec = await openCodecSource(
      {
        head: new Uint8Array(bytes),
        size,
        read: async (start, end) =>
          new Uint8Array(await (await load(url, rangeHeader(start, end))).arrayBuffer()),
      },
      context.sampleRate,
    )
    if (codec) {
      return {
        ...codec,
        streamed: true,
        head,
        // Should the decoder refuse the file's first stretch, the browser decodes it whole instead.
        wholeInstead: () => decodeWhole(url, context, load, whole),
      }
    }
  }
  // Another format (or no WebCodecs): the whole file, decoded by the browser.
  return decodeWhole(url, context, load, whole)
}

/** The whole file (`whole`, or fetched), decoded by the browser and read from memory. */
async function decodeWhole(
  url: string,
  context: BaseAudioContext,
  load: LoadMedia,
  whole?: ArrayBuffer,
): Promise<OpenedSong> {
  const bytes = whole ?? (await (await load(url)).arrayBuffer())
  let buffer: AudioBuffer
  try {
    buffer = await context.decodeAudioData(bytes)
  } catch {
    throw new MediaFailure(4, 'The audio format is not supported')
  }
  return { source: bufferSource(buffer), duration: buffer.duration, streamed: false }
}
