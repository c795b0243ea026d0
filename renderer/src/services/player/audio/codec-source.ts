import type { Container, Frame, ReadRange, SeekPoint } from '@shared/audio/codec'
import { openContainer } from '@shared/audio/codec'
import { MediaFailure } from './media-load'
import { createRateStream } from './pcm-source'
import type { PcmSource } from './pcm-source'

/**
 * A compressed song (FLAC, MP3, AAC in MP4) read by byte ranges and decoded a stretch at a time by
 * WebCodecs' `AudioDecoder`, so neither the file nor its PCM is held whole: at most a few seconds of
 * frames and what one read decodes. The decoded samples are trimmed to the song (an MP3's encoder and
 * decoder delay and padding, an MP4's edit list) and resampled to the context's rate with the phase
 * carried across reads (`pcm-source.ts`).
 *
 * The containers (`shared/audio/codec`) say where the frames are. A seek bisects a FLAC file by byte
 * offset (exact: each frame header says where it starts), estimates an MP3 one (from its bit rate or
 * Xing table) or looks an MP4 one up (its sample tables), decodes from the frame found and drops what
 * comes before the position.
 */

/**
 * Bisection stops once the frame found is this close before the target (s): the rest is decoded (4 s
 * of FLAC decode in milliseconds; another probe is another round trip to the data source). Each probe
 * aims half of it before the target and reads that much and 1.5 s more, so when it lands there the read
 * goes on from its bytes: a seek is one request.
 */
const CLOSE_ENOUGH_SECONDS = 4
const MAX_PROBES = 16
/** A frame's place is kept about this often in the file (a 45 MB song: about 350 points). */
const LEARN_BYTES = 128 * 1024
/** How long a decoder may sit on a fed chunk before it is flushed (see `decoded`). */
const STALL_MS = 2000
/**
 * How long nothing may come out of a decoder that has taken every chunk before it is flushed: long
 * enough that a busy machine's slow output is not taken for a dropped frame (a flush mid-song is a
 * glitch in MP3), short against the 2 s it waited before.
 */
const QUIET_MS = 250
/** Junk skipped between frames before the song is taken to end there. */
const MAX_JUNK = 64 * 1024

export interface CodecFile {
  head: Uint8Array
  size: number
  read: ReadRange
}

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

function decoderConfig(container: Container): AudioDecoderConfig {
  return {
    codec: container.codec,
    sampleRate: container.sampleRate,
    numberOfChannels: container.channels,
    ...(container.description ? { description: container.description as Uint8Array<ArrayBuffer> } : {}),
  }
}

/** The bytes of the file around the read position: fetched ahead in blocks, let go once read. */
class ByteWindow {
  base = 0
  bytes = new Uint8Array(0)
  constructor(
    private readonly file: CodecFile,
    private readonly end: number,
  ) {}

  get eof() {
    return this.base + this.bytes.length >= this.end
  }

  /** Makes the window start at `at` (keeping what it has from there on). */
  moveTo(at: number) {
    if (at >= this.base && at <= this.base + this.bytes.length)
      this.bytes = this.bytes.subarray(at - this.base)
    else this.bytes = new Uint8Array(0)
    this.base = at
  }

  /** Appends about `size` more bytes; answers false at the end. */
  async more(size: number): Promise<boolean> {
    const from = this.base + this.bytes.length
    if (from >= this.end) return false
    const head = this.file.head
    // What the first bytes already hold is taken from them (a song's start asks for nothing more).
    const to =
      from < head.length ? Math.min(head.length, from + size) - 1 : Math.min(this.end, from + size) - 1
    const got = to < head.length ? head.subarray(from, to + 1) : await this.file.read(from, to)
    if (got.length === 0) return false
    const joined = new Uint8Array(this.bytes.length + got.length)
    joined.set(this.bytes)
    joined.set(got, this.bytes.length)
    this.bytes = joined
    return true
  }
}

/**
 * Decoded output as it comes: frames `[from, to)` of `data` are the song's (the rest is before the
 * position, or delay and padding). Copy them before returning: `data` is closed then.
 */
export type PcmSink = (data: AudioData, from: number, to: number) => void

/**
 * The decoding of one container, from a position on: frames found in the file's bytes, fed to an
 * `AudioDecoder`, and its output handed to a sink trimmed to the song. Used for playback
 * (`codecSource`) and for measuring loudness in a worker (`loudness.worker.ts`).
 */
export function createFrameDecoder(container: Container, file: CodecFile) {
  const { sampleRate, skip } = container
  const songEnd = skip + container.frames
  const bytesPerSecond =
    (container.audioEnd - container.audioStart) / Math.max(1, container.frames / sampleRate)
  const window = new ByteWindow(file, container.audioEnd)
  /** Bytes asked at once when probing for a seek (see CLOSE_ENOUGH_SECONDS). */
  const probeBytes = Math.max(
    64 * 1024,
    Math.min(1 << 20, Math.round(bytesPerSecond * (CLOSE_ENOUGH_SECONDS + 1.5))),
  )
  let decoder: AudioDecoder | undefined
  let outputs: AudioData[] = []
  let failure: unknown
  /** Chunks fed to the decoder and outputs it gave (one each); a wait for them to meet. */
  let fedChunks = 0
  let gotChunks = 0
  let waiter: (() => void) | undefined
  let onOutput: (() => void) | undefined
  /** File offset of the next frame to feed; the decoder output index of the next sample that comes out. */
  let at = container.audioStart
  let outIndex = 0
  let previous: Frame | undefined
  /** Output before this index is thrown away (before the position, or the priming after a jump). */
  let dropUntil = skip
  let ended = false

  const closeDecoder = () => {
    if (decoder && decoder.state !== 'closed') decoder.close()
    for (const data of outputs) data.close()
    outputs = []
  }

  const newDecoder = () => {
    closeDecoder()
    failure = undefined
    fedChunks = 0
    gotChunks = 0
    decoder = new AudioDecoder({
      output: (data) => {
        outputs.push(data)
        gotChunks++
        if (gotChunks >= fedChunks) waiter?.()
        else onOutput?.()
      },
      error: (error) => {
        failure = error
        waiter?.()
      },
    })
    decoder.configure(decoderConfig(container))
  }

  /**
   * Where frames were found (FLAC headers say their sample), about every LEARN_BYTES of the file: a
   * later seek starts its search between the nearest of them, so a seek back into what was played, or
   * near a probe's point, is one request.
   */
  const learned: SeekPoint[] = []
  function learn(point: SeekPoint) {
    const index = learned.findIndex((known) => known.byte >= point.byte)
    const before = index < 0 ? learned[learned.length - 1] : learned[index - 1]
    const after = index < 0 ? undefined : learned[index]
    if (before && point.byte - before.byte < LEARN_BYTES) return
    if (after && after.byte - point.byte < LEARN_BYTES) return
    learned.splice(index < 0 ? learned.length : index, 0, point)
  }

  /** The next frame's bytes, or undefined at the song's end (junk after the last frame ends it too). */
  async function nextFrame(blockBytes: number): Promise<{ frame: Frame; data: Uint8Array } | undefined> {
    let junk = 0
    for (;;) {
      window.moveTo(at)
      const answer = container.frameAt(window.bytes, 0, window.eof, previous, window.base)
      if (answer === 'more') {
        if (!(await window.more(blockBytes))) return undefined
        continue
      }
      if (answer) {
        if (answer.sample !== undefined) learn({ byte: at, sample: answer.sample })
        // A view: the chunk made of it copies the bytes.
        const data = window.bytes.subarray(0, answer.length)
        at += answer.length
        previous = answer
        return { frame: answer, data }
      }
      // Not a frame here: skip a byte (a damaged frame, or a tag between frames) and look again.
      if (at >= container.audioEnd || ++junk > MAX_JUNK) return undefined
      if (window.bytes.length <= 1 && !(await window.more(blockBytes))) return undefined
      at++
      previous = undefined
    }
  }

  /** The window of the last probe: the read goes on from its bytes when it starts in them. */
  let lastProbe: ByteWindow | undefined

  /** The first frame at or after `from` (its offset and what its header says), probing by ranges. */
  async function frameAfter(from: number): Promise<{ byte: number; frame: Frame } | undefined> {
    const probe = new ByteWindow(file, container.audioEnd)
    lastProbe = probe
    probe.moveTo(from)
    await probe.more(probeBytes)
    for (let p = 0; p < probe.bytes.length; p++) {
      const answer = container.frameAt(probe.bytes, p, probe.eof, undefined, probe.base)
      if (answer === 'more') {
        if (!(await probe.more(probeBytes))) return undefined
        p--
        continue
      }
      // Two frames in a row: a sync pattern inside a frame's data is unlikely to be followed by one.
      if (
        answer &&
        container.frameAt(probe.bytes, p + answer.length, probe.eof, undefined, probe.base) !== undefined
      ) {
        if (answer.sample !== undefined) learn({ byte: probe.base + p, sample: answer.sample })
        return { byte: probe.base + p, frame: answer }
      }
    }
    return undefined
  }

  /** Puts the read position on a frame at or before decoder output index `goal`. */
  async function locate(goal: number) {
    let { low, high } = container.bounds(goal)
    // Bounds that are one point are exact (MP4's tables) or an estimate (MP3's): nothing to narrow.
    for (const point of low.byte === high.byte ? [] : learned) {
      if (point.sample <= goal && point.sample > low.sample) low = point
      if (point.sample > goal && point.sample < high.sample) high = point
    }
    if (goal <= 0) {
      // The song's start: its first frame.
      low = { byte: container.audioStart, sample: 0 }
    } else if (low.byte !== high.byte) {
      for (let probe = 0; probe < MAX_PROBES; probe++) {
        if (goal - low.sample < CLOSE_ENOUGH_SECONDS * sampleRate || high.sample <= low.sample) break
        const share = (goal - low.sample) / (high.sample - low.sample)
        const margin = (CLOSE_ENOUGH_SECONDS / 2) * bytesPerSecond
        const guess = Math.floor(low.byte + share * (high.byte - low.byte) - margin)
        const found = await frameAfter(Math.max(low.byte + 1, guess))
        if (!found || found.frame.sample === undefined || found.byte >= high.byte) break
        if (found.frame.sample > goal) high = { byte: found.byte, sample: found.frame.sample }
        else if (found.byte > low.byte) low = { byte: found.byte, sample: found.frame.sample }
        else break
      }
    } else if (low.byte > container.audioStart) {
      // An estimate (MP3): the first frame from there.
      const found = await frameAfter(low.byte)
      if (found) low = { byte: found.byte, sample: container.sampleAt?.(found.byte) ?? low.sample }
    }
    at = low.byte
    outIndex = low.sample
    previous = undefined
    // The probe that found the frame already holds the bytes from there on.
    const probe = lastProbe
    lastProbe = undefined
    if (probe && at >= probe.base && at < probe.base + probe.bytes.length) {
      window.base = probe.base
      window.bytes = probe.bytes
    }
    window.moveTo(at)
  }

  /**
   * Waits for the decoder's output of everything fed. Not by `flush` but at the song's end: Chromium's
   * decoder starts afresh after a flush, and an MP3 frame leans on the frames before it (a flush between
   * reads was heard as a glitch). Each chunk gives one output, but a damaged one gives none (Chromium
   * drops it without an error): once the decoder has taken every chunk and nothing has come out for
   * `QUIET_MS`, or after `STALL_MS` at most, it is flushed.
   */
  async function decoded(end: boolean) {
    if (end) return decoder!.flush()
    if (gotChunks >= fedChunks || failure) return
    const current = decoder!
    const stalled = await new Promise<boolean>((resolve) => {
      let quiet: ReturnType<typeof setTimeout> | undefined
      const check = () => {
        clearTimeout(quiet)
        if (current.decodeQueueSize === 0) quiet = setTimeout(() => finish(true), QUIET_MS)
      }
      const longest = setTimeout(() => finish(true), STALL_MS)
      const finish = (flush: boolean) => {
        clearTimeout(quiet)
        clearTimeout(longest)
        current.removeEventListener('dequeue', check)
        waiter = undefined
        resolve(flush)
      }
      waiter = () => finish(false)
      current.addEventListener('dequeue', check)
      // Outputs keep the quiet timer off: each one restarts it.
      onOutput = check
      check()
    })
    onOutput = undefined
    if (stalled) await decoder!.flush()
  }

  return {
    get ended() {
      return ended
    },
    /** Decodes from song frame `frame` on (a new decoder, the frames before it primed and dropped). */
    async start(frame: number, alive: () => boolean = () => true): Promise<boolean> {
      const goal = skip + frame
      ended = false
      await locate(Math.max(0, goal - container.preroll))
      if (!alive()) return false
      dropUntil = Math.max(goal, skip)
      newDecoder()
      return true
    },
    /**
     * Hands at least `wanted` frames of the song to `sink` (fewer at its end); answers how many, or
     * undefined when `alive()` turned false meanwhile (a newer start: nothing more is handed).
     */
    async decode(wanted: number, sink: PcmSink, alive: () => boolean): Promise<number | undefined> {
      // What is wanted and what is decoded to be dropped before it (after a seek), in one request.
      const seconds = (wanted + Math.max(0, dropUntil - outIndex)) / sampleRate
      const blockBytes = Math.max(16 * 1024, Math.min(4 << 20, Math.round(bytesPerSecond * (seconds + 0.5))))
      let got = 0
      while (!ended && got < wanted) {
        // Frames for what is still wanted (and what is thrown away before it), then everything decoded.
        let fed = 0
        const feed = wanted - got + Math.max(0, dropUntil - outIndex)
        while (fed < feed) {
          const next = await nextFrame(blockBytes)
          if (!alive()) return undefined
          if (!next || outIndex + fed >= songEnd) {
            ended = true
            break
          }
          const timestamp = Math.round(((outIndex + fed) / sampleRate) * 1e6)
          decoder!.decode(new EncodedAudioChunk({ type: 'key', timestamp, data: next.data }))
          fedChunks++
          fed += next.frame.samples
        }
        try {
          await decoded(ended)
        } catch (error) {
          if (!alive()) return undefined
          throw error
        }
        if (failure) throw new MediaFailure(3, `The audio could not be decoded (${String(failure)})`)
        if (!alive()) return undefined
        for (const data of outputs) {
          const count = data.numberOfFrames
          const from = Math.max(0, dropUntil - outIndex)
          const to = Math.min(count, songEnd - outIndex)
          if (to > from) {
            sink(data, from, to)
            got += to - from
          }
          outIndex += count
          data.close()
        }
        outputs = []
        if (outIndex >= songEnd) ended = true
      }
      return got
    },
    close: closeDecoder,
  }
}

/** Copies frames `[from, to)` of `data`'s channel `channel` into `into` (f32, one plane per channel). */
export function copyPlane(data: AudioData, channel: number, from: number, to: number, into: Float32Array) {
  data.copyTo(into, {
    planeIndex: Math.min(channel, data.numberOfChannels - 1),
    frameOffset: from,
    frameCount: to - from,
    format: 'f32-planar',
  })
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
