import type { Container } from '@shared/audio/codec'
import { openContainer } from '@shared/audio/codec'
import type { CodecFile } from './byte-window'
import { copyPlane, createFrameDecoder, decoderConfig } from './frame-decoder'
import type { PcmSink } from './frame-decoder'
import { createRateStream } from './pcm-source'
import type { PcmSource } from './pcm-source'

/**
 * A compressed song (FLAC, MP3, AAC in MP4) read by byte ranges and decoded a stretch at a time by
 * WebCodecs' `AudioDecoder`, so neither the file nor its PCM is held whole: at most a few seconds of
 * frames and what one read decodes. The decoded samples are trimmed to the song (an MP3's encoder and
 * decoder delay and padding, an MP4's edit list) and resampled to the context's rate with the phase
 * carried across reads (`pcm-source.ts`).
 *
 * The containers (`shared/audio/codec`) say where the frames are; the stages: `byte-window.ts` (the
 * bytes around the read position), `seek-search.ts` (where a seek starts decoding), `frame-decoder.ts`
 * (the decoder's lifecycle and the decode loop), and here the choice of a decodable file and its reads.
 */

export type { CodecFile } from './byte-window'

/**
 * The container of `file` when this page (or worker) can decode it: FLAC, MP3 or AAC-LC in MP4,
 * `AudioDecoder` there (a secure context), and the stream's configuration supported.
 */
export async function openDecodable(file: CodecFile): Promise<Container | undefined> {
  if (typeof AudioDecoder === 'undefined') return undefined
  const container = await openContainer(file.head, file.size, file.read).catch(() => undefined)
  if (!container || !Number.isFinite(container.frames) || container.frames <= 0) return undefined
  const supported = await AudioDecoder.isConfigSupported(decoderConfig(container)).catch(() => undefined)
  return supported?.supported ? container : undefined
}

/**
 * A source for `file` decoded by WebCodecs, or undefined when `openDecodable` finds none.
 * `contextRate`: the rate it is read at.
 */
export async function openCodecSource(
  file: CodecFile,
  contextRate: number,
): Promise<{ source: PcmSource; duration: number } | undefined> {
  const container = await openDecodable(file)
  if (!container) return undefined
  return {
    source: codecSource(container, file, contextRate),
    duration: container.frames / container.sampleRate,
  }
}

export function codecSource(container: Container, file: CodecFile, contextRate: number): PcmSource {
  const { channels, sampleRate } = container
  const rate = createRateStream(sampleRate, contextRate, channels)
  const frames = createFrameDecoder(container, file)
  /** The song frame a new run starts from (set by `seek`, acted on by the next read). */
  let target: number | undefined = 0
  let queue: Promise<unknown> = Promise.resolve()

  async function readRun(seconds: number, current: () => boolean) {
    const run = rate.run
    const alive = () => run === rate.run && current()
    if (target !== undefined) {
      const frame = target
      target = undefined
      if (!(await frames.start(frame, () => run === rate.run))) return undefined
    }
    // The decoder's output is kept (not copied) until the read is whole, then copied once.
    const pieces: Array<{ data: AudioData; from: number; to: number }> = []
    const keep: PcmSink = (data, from, to) => pieces.push({ data: data.clone(), from, to })
    try {
      const got = await frames.decode(Math.max(1, Math.round(seconds * sampleRate)), keep, alive)
      if (got === undefined) return undefined
      const samples = Array.from({ length: channels }, () => new Float32Array(got))
      let offset = 0
      for (const { data, from, to } of pieces) {
        samples.forEach((plane, c) =>
          copyPlane(data, c, from, to, plane.subarray(offset, offset + to - from)),
        )
        offset += to - from
      }
      return { samples: rate.push(samples, frames.ended), last: frames.ended }
    } finally {
      for (const { data } of pieces) data.close()
    }
  }

  return {
    channels,
    seek(position) {
      const frame = Math.max(0, Math.min(container.frames, Math.round(position * sampleRate)))
      target = frame
      rate.reset(container.frames - frame)
      return frame / sampleRate
    },
    read(seconds, current) {
      // One read at a time: a read asked before a seek finds its run gone and answers undefined.
      const run = rate.run
      const result = queue.then(() => (run === rate.run ? readRun(seconds, current) : undefined))
      queue = result.catch(() => undefined)
      return result
    },
  }
}
