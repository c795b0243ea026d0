/// <reference lib="webworker" />
import { createLoudnessMeter } from '@shared/audio/loudness'
import type { LoudnessMeter } from '@shared/audio/loudness'
import type { Measured } from '@shared/audio/gain'
import { openDecodable } from './codec-source'
import { copyPlane, createFrameDecoder } from './frame-decoder'
import type { PcmSink } from './frame-decoder'
import { decodeFrames } from '@shared/audio/codec/wav'
import type { WavLayout } from '@shared/audio/codec/wav'

/**
 * Measures a song's loudness off the page's event loop and the audio thread; the answer is the EBU R128
 * integrated loudness and true peak.
 * - WAV: the page sends the layout, then the sample bytes a chunk at a time (transferred, not copied),
 *   then `end`.
 * - FLAC, MP3, AAC: the page sends the file's first bytes and size; the worker decodes it here with
 *   WebCodecs (`codec-source.ts`), asking the page for the bytes it needs (`read`), each stretch copied
 *   into the same scratch arrays, and says `unsupported` when it cannot.
 * Memory: one chunk or stretch and the meter (about 50 KB for 10 min).
 */
type Message =
  | { type: 'start'; layout: WavLayout }
  | { type: 'chunk'; bytes: ArrayBuffer }
  | { type: 'end' }
  | { type: 'start-codec'; head: ArrayBuffer; size: number }
  | { type: 'bytes'; id: number; bytes?: ArrayBuffer }

export type Reply =
  | { type: 'result'; measured: Measured }
  | { type: 'unsupported' }
  | { type: 'read'; id: number; start: number; end: number }

/** Seconds of a FLAC, MP3 or AAC song decoded per step. */
const STEP_SECONDS = 5
/**
 * How many times as fast as it plays a FLAC, MP3 or AAC song is measured, at most: 10 minutes in 20 s
 * (unpaced, the decoding took a whole core for 5 s beside the music).
 */
const MAX_SPEED = 30

let layout: WavLayout | undefined
let meter: LoudnessMeter | undefined
const reads = new Map<number, (bytes: ArrayBuffer | undefined) => void>()
let nextRead = 0

const reply = (message: Reply) => self.postMessage(message)

/** Bytes `[start, end]` of the song, from the page. */
function read(start: number, end: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const id = nextRead++
    reads.set(id, (bytes) => (bytes ? resolve(new Uint8Array(bytes)) : reject(new Error('read failed'))))
    reply({ type: 'read', id, start, end })
  })
}

async function measureCodec(head: ArrayBuffer, size: number) {
  const file = { head: new Uint8Array(head), size, read }
  const container = await openDecodable(file)
  if (!container) return reply({ type: 'unsupported' })
  const codecMeter = createLoudnessMeter(container.sampleRate, container.channels)
  const frames = createFrameDecoder(container, file)
  let scratch = Array.from({ length: container.channels }, () => new Float32Array(0))
  const sink: PcmSink = (data, from, to) => {
    const count = to - from
    if (scratch[0].length < count) scratch = scratch.map(() => new Float32Array(count))
    const views = scratch.map((plane, c) => {
      const view = plane.subarray(0, count)
      copyPlane(data, c, from, to, view)
      return view
    })
    codecMeter.push(views)
  }
  try {
    await frames.start(0)
    while (!frames.ended) {
      const began = performance.now()
      await frames.decode(Math.round(STEP_SECONDS * container.sampleRate), sink, () => true)
      // At most MAX_SPEED times as fast as it plays: measuring stays a light job beside the music.
      const rest = (STEP_SECONDS * 1000) / MAX_SPEED - (performance.now() - began)
      if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest))
    }
    reply({ type: 'result', measured: codecMeter.result() })
  } catch {
    reply({ type: 'unsupported' })
  } finally {
    frames.close()
  }
}

self.onmessage = (event: MessageEvent<Message>) => {
  const message = event.data
  if (message.type === 'start') {
    layout = message.layout
    meter = createLoudnessMeter(layout.sampleRate, layout.channels)
  } else if (message.type === 'chunk' && layout && meter) {
    meter.push(decodeFrames(layout, message.bytes))
  } else if (message.type === 'end' && meter) {
    reply({ type: 'result', measured: meter.result() })
    meter = undefined
    layout = undefined
  } else if (message.type === 'start-codec') {
    void measureCodec(message.head, message.size)
  } else if (message.type === 'bytes') {
    reads.get(message.id)?.(message.bytes)
    reads.delete(message.id)
  }
}
