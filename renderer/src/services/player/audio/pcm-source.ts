import { rangeHeader } from '@shared/http/range'
import { createResampler } from './resample'
import type { Resampler } from './resample'
import { createRangeAhead } from './range-ahead'
import { decodeFrames, frameRange } from '@shared/audio/codec/wav'
import type { WavLayout } from '@shared/audio/codec/wav'

/**
 * Where a song's PCM comes from, at the context's rate, a stretch at a time (`track.ts`): a WAV file
 * read by byte ranges, decoded and resampled with the phase carried across reads; or a whole file the
 * browser decoded (formats neither WAV nor streamed by `codec-source.ts`), read from memory. They run in
 * the chunk worker (`chunk-service.ts`).
 */
export interface PcmSource {
  readonly channels: number
  /** Reads from `position` (s) on from now; answers the exact position of the first frame. */
  seek(position: number): number
  /**
   * The next `seconds` of the song (source time), or undefined when `current()` turned false while
   * fetching (a newer start). `last`: the song ends with these. `then`: the length of the read that
   * follows, when known (a WAV file asks its bytes at once: `range-ahead.ts`).
   */
  read(
    seconds: number,
    current: () => boolean,
    then?: number,
  ): Promise<{ samples: Float32Array[]; last: boolean } | undefined>
}

/**
 * A WAV file on the media scheme, read by byte ranges. `head`: the file's first bytes, already fetched to
 * read its header; a read that falls within them is answered from there, so a song started from its
 * beginning asks for nothing more before its first chunk plays.
 */
export function wavSource(
  layout: WavLayout,
  contextRate: number,
  fetchRange: (range: string) => Promise<ArrayBuffer>,
  head?: ArrayBuffer,
): PcmSource {
  let cursor = 0
  const rate = createRateStream(layout.sampleRate, contextRate, layout.channels)
  const ranges = createRangeAhead(fetchRange)
  const framesOf = (seconds: number) => Math.max(1, Math.round(seconds * layout.sampleRate))
  const inHead = (end: number) => !!head && end < head.byteLength
  return {
    channels: layout.channels,
    seek(position) {
      cursor = Math.min(layout.frames, Math.round(position * layout.sampleRate))
      rate.reset(layout.frames - cursor)
      ranges.forget()
      return cursor / layout.sampleRate
    },
    async read(seconds, current, then) {
      const frames = framesOf(seconds)
      const { start, end } = frameRange(layout, cursor, frames)
      const run = rate.run
      const reading =
        end < start
          ? new ArrayBuffer(0)
          : inHead(end)
            ? head!.slice(start, end + 1)
            : ranges.fetch(rangeHeader(start, end))
      // The next read's bytes asked beside these, not once these are answered.
      const next = then === undefined ? undefined : frameRange(layout, cursor + frames, framesOf(then))
      if (next && next.end >= next.start && !inHead(next.end))
        ranges.prefetch(rangeHeader(next.start, next.end))
      const bytes = await reading
      if (!current() || run !== rate.run) return undefined
      const got = Math.floor(bytes.byteLength / layout.blockAlign)
      cursor += got
      const last = got === 0 || cursor >= layout.frames
      return { samples: rate.push(decodeFrames(layout, bytes), last), last }
    },
  }
}

/**
 * One run of a song (from a seek on) resampled to the context's rate, the phase carried across reads;
 * at the end the frames the resampler still holds back are given too, as many as the run is owed.
 */
export function createRateStream(fromRate: number, toRate: number, channels: number) {
  let resampler: Resampler = createResampler(fromRate, toRate, channels)
  /** Output frames expected from the run's start to the song's end, and given so far. */
  let expected = Number.POSITIVE_INFINITY
  let given = 0
  return {
    /** Changes at each reset: a read begun before it must not push its samples into the new run. */
    get run() {
      return resampler
    },
    /** A new run, `remaining` source frames from its start to the song's end (NaN: not known). */
    reset(remaining: number) {
      expected = Number.isFinite(remaining)
        ? Math.round((remaining * toRate) / fromRate)
        : Number.POSITIVE_INFINITY
      given = 0
      resampler = createResampler(fromRate, toRate, channels)
    },
    push(decoded: Float32Array[], last: boolean): Float32Array[] {
      let samples = resampler.push(decoded)
      if (last && fromRate !== toRate) {
        // The resampler holds back the last input frames: push copies of the last one, keep what is owed.
        const lastValues = decoded.map((channel) => channel[channel.length - 1] ?? 0)
        const extra = resampler.push(lastValues.map((value) => new Float32Array(4).fill(value)))
        const keep = Math.max(0, Math.min(extra[0].length, expected - given - samples[0].length))
        samples = samples.map((channel, c) => {
          const joined = new Float32Array(channel.length + keep)
          joined.set(channel)
          joined.set(extra[c].subarray(0, keep), channel.length)
          return joined
        })
      }
      given += samples[0]?.length ?? 0
      return samples
    },
  }
}

/** A whole decoded file's planes (at the context's rate, `rate`), read from memory. */
export function planesSource(planes: Float32Array[], rate: number): PcmSource {
  const length = planes[0]?.length ?? 0
  let cursor = 0
  return {
    channels: planes.length,
    seek(position) {
      cursor = Math.max(0, Math.min(length, Math.round(position * rate)))
      return cursor / rate
    },
    async read(seconds) {
      const from = cursor
      cursor = Math.min(length, from + Math.max(1, Math.round(seconds * rate)))
      return { samples: planes.map((plane) => plane.subarray(from, cursor)), last: cursor >= length }
    },
  }
}
