import { rangeHeader } from '@shared/http/range'
import { createResampler } from './resample'
import type { Resampler } from './resample'
import { createRangeAhead } from './range-ahead'
import { decodeFrames, frameRange } from '@shared/audio/codec/wav'
import type { WavLayout } from '@shared/audio/codec/wav'
import { blockSeconds, MAX_BLOCK_BYTES } from './range-block'

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
 * beginning asks for nothing more before its first chunk plays. The read after a start's first chunk has
 * its bytes asked beside the first's (`range-ahead.ts`, when the worker says how long it will be: `then`);
 * steady reads fetch ahead of what they decode (`range-block.ts`) and later reads take what was fetched
 * before asking again.
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
  /** Bytes fetched from file offset `start` on, past what the reads took so far. */
  let ahead: { start: number; bytes: Uint8Array } | undefined
  /** Reads since the last seek: later ones fetch further ahead. */
  let reads = 0
  const maxBlockFrames = Math.max(1, Math.floor(MAX_BLOCK_BYTES / layout.blockAlign))
  const framesOf = (seconds: number) => Math.max(1, Math.round(seconds * layout.sampleRate))
  const inHead = (end: number) => !!head && end < head.byteLength

  /**
   * The bytes `[start, end]` of the `reading`-th read since a seek, of `seconds` from frame `from`, and
   * the `last` it fetches to: the first two only their own (a start is heard at once), later ones more.
   */
  function rangeOf(from: number, seconds: number, reading: number) {
    const { start, end } = frameRange(layout, from, framesOf(seconds))
    const frames =
      reading < 2
        ? 0
        : Math.min(maxBlockFrames, Math.round(blockSeconds(seconds, reading) * layout.sampleRate))
    return { start, end, last: Math.max(end, frameRange(layout, from, frames).end) }
  }

  /** Bytes `[start, end]` of the file: what was fetched ahead, the rest fetched up to `last`. */
  async function bytesOf({ start, end, last }: ReturnType<typeof rangeOf>): Promise<{
    bytes: ArrayBuffer
    kept?: { start: number; bytes: Uint8Array }
  }> {
    const have =
      ahead && start >= ahead.start && start < ahead.start + ahead.bytes.length
        ? ahead.bytes.subarray(start - ahead.start)
        : new Uint8Array(0)
    if (start + have.length > end) return { bytes: have.slice(0, end + 1 - start).buffer }
    const fetched = new Uint8Array(await ranges.fetch(rangeHeader(start + have.length, last)))
    const joined = new Uint8Array(have.length + fetched.length)
    joined.set(have)
    joined.set(fetched, have.length)
    return { bytes: joined.slice(0, end + 1 - start).buffer, kept: { start, bytes: joined } }
  }

  return {
    channels: layout.channels,
    seek(position) {
      cursor = Math.min(layout.frames, Math.round(position * layout.sampleRate))
      rate.reset(layout.frames - cursor)
      ranges.forget()
      ahead = undefined
      reads = 0
      return cursor / layout.sampleRate
    },
    async read(seconds, current, then) {
      const run = rate.run
      const range = rangeOf(cursor, seconds, reads++)
      const { start, end } = range
      const read =
        end < start
          ? { bytes: new ArrayBuffer(0) }
          : inHead(end)
            ? { bytes: head!.slice(start, end + 1) }
            : bytesOf(range)
      // The first read's successor (its bytes its own, nothing kept before it) asked beside it.
      if (reads === 1 && then !== undefined) {
        const next = rangeOf(cursor + framesOf(seconds), then, 1)
        if (next.end >= next.start && !inHead(next.end)) ranges.prefetch(rangeHeader(next.start, next.last))
      }
      const got = await read
      if (!current() || run !== rate.run) return undefined
      // What this read fetched past its own bytes is kept for the reads after it.
      if ('kept' in got && got.kept) ahead = got.kept
      const { bytes } = got
      const frames = Math.floor(bytes.byteLength / layout.blockAlign)
      cursor += frames
      const last = frames === 0 || cursor >= layout.frames
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
