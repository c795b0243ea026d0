import type { Container, Frame } from '@shared/audio/codec'
import { ByteWindow } from './byte-window'
import type { CodecFile } from './byte-window'
import { MediaFailure } from './media-load'
import { createSeekSearch } from './seek-search'
import { blockSeconds, MAX_BLOCK_BYTES } from './range-block'

/**
 * The decoder's lifecycle and the decode loop of a compressed song: frames found in the file's bytes
 * (`byte-window.ts`), from where a seek puts the read (`seek-search.ts`), fed to WebCodecs'
 * `AudioDecoder` and its output trimmed to the song (an MP3's encoder and decoder delay and padding, an
 * MP4's edit list or iTunes gapless info).
 */

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

export function decoderConfig(container: Container): AudioDecoderConfig {
  return {
    codec: container.codec,
    sampleRate: container.sampleRate,
    numberOfChannels: container.channels,
    ...(container.description ? { description: container.description as Uint8Array<ArrayBuffer> } : {}),
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
  const search = createSeekSearch(container, file, bytesPerSecond)
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
  /** Reads (`decode`) since the last start: later ones fetch further ahead (`range-block.ts`). */
  let reads = 0

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
        if (answer.sample !== undefined) search.learn({ byte: at, sample: answer.sample })
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

  /** Puts the read position on a frame at or before decoder output index `goal`. */
  async function locate(goal: number) {
    const found = await search.locate(goal)
    at = found.byte
    outIndex = found.sample
    previous = undefined
    if (found.probe) {
      window.base = found.probe.base
      window.bytes = found.probe.bytes
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
      reads = 0
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
      const blockBytes = Math.max(
        16 * 1024,
        Math.min(MAX_BLOCK_BYTES, Math.round(bytesPerSecond * blockSeconds(seconds, reads++))),
      )
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
