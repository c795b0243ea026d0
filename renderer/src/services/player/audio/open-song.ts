import { rangeHeader } from '@shared/http/range'
import { parseWavHeader } from '@shared/audio/codec/wav'
import { openPrepared } from './chunk-client'
import type { PreparedSong } from './chunk-client'
import { fileSize, MediaFailure } from './media-load'

/**
 * Opening a song (`track.ts`): its first bytes say which codec it is. WAV is read by byte ranges
 * (`pcm-source.ts`); FLAC, MP3 and AAC in MP4 by byte ranges decoded by WebCodecs (`codec-source.ts`);
 * both in the chunk worker (`chunk-client.ts`), which asks the page for the bytes. Another format (or
 * no WebCodecs) is fetched whole and decoded by the browser's `decodeAudioData` here, its planes then
 * handed to the worker.
 */

export const HEADER_BYTES = 64 * 1024

export type LoadMedia = (url: string, range?: string) => Promise<Response>

/** A song's first bytes as the player fetched them, and the file's length (for its loudness analysis). */
export interface SongHead {
  bytes: ArrayBuffer
  size: number
}

export interface OpenedSong {
  source: PreparedSong
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
  const fetchRange = async (range: string) => (await load(url, range)).arrayBuffer()
  // The worker is handed a copy of the first bytes: `head` stays here for the loudness analysis.
  const first = bytes.slice(0)
  if (layout) {
    const open = { type: 'open-wav', layout, head: first, rate: context.sampleRate } as const
    const source = (await openPrepared(open, fetchRange, [first]))!
    return { source, duration: layout.frames / layout.sampleRate, streamed: true, head }
  }
  // FLAC, MP3, AAC in MP4: decoded a stretch at a time, the file read by ranges.
  if (size !== undefined) {
    const open = { type: 'open-codec', head: first, size, rate: context.sampleRate } as const
    const source = await openPrepared(open, fetchRange, [first])
    if (source) {
      return {
        source,
        duration: source.duration,
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
  const planes = Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c).slice())
  const open = { type: 'open-pcm', planes, rate: buffer.sampleRate } as const
  const source = await openPrepared(
    open,
    () => Promise.reject(new MediaFailure(2, 'nothing to read')),
    planes.map((plane) => plane.buffer),
  )
  return { source: source!, duration: buffer.duration, streamed: false }
}
