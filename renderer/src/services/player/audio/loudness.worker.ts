/// <reference lib="webworker" />
import { createLoudnessMeter } from '@shared/audio/loudness'
import type { LoudnessMeter } from '@shared/audio/loudness'
import { decodeFrames } from './wav'
import type { WavLayout } from './wav'

/**
 * Measures a song's loudness off the page's event loop and the audio thread: the page sends the WAV
 * layout, then the sample bytes a chunk at a time (transferred, not copied), then `end`; or, for a file
 * the page decoded (FLAC, MP3), the rate and channels, then the samples a stretch at a time; the answer is
 * the EBU R128 integrated loudness and true peak. Memory: one chunk and the meter (about 50 KB for 10 min).
 */
type Message =
  | { type: 'start'; layout: WavLayout }
  | { type: 'chunk'; bytes: ArrayBuffer }
  | { type: 'start-pcm'; sampleRate: number; channels: number }
  | { type: 'pcm'; samples: Float32Array[] }
  | { type: 'end' }

let layout: WavLayout | undefined
let meter: LoudnessMeter | undefined

self.onmessage = (event: MessageEvent<Message>) => {
  const message = event.data
  if (message.type === 'start') {
    layout = message.layout
    meter = createLoudnessMeter(layout.sampleRate, layout.channels)
  } else if (message.type === 'start-pcm') {
    layout = undefined
    meter = createLoudnessMeter(message.sampleRate, message.channels)
  } else if (message.type === 'chunk' && layout && meter) {
    meter.push(decodeFrames(layout, message.bytes))
  } else if (message.type === 'pcm' && meter) {
    meter.push(message.samples)
  } else if (message.type === 'end' && meter) {
    self.postMessage(meter.result())
    meter = undefined
    layout = undefined
  }
}
