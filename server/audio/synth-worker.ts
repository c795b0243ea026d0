/**
 * A worker thread that synthesises demo audio, so a synthesis (hundreds of milliseconds for a lossless
 * file) never blocks the server's event loop. Runs as TypeScript under Node's type stripping (tests,
 * `npm run serve`) or as the built out/main/synth-worker.js (the app). Erasable syntax and explicit
 * extensions only.
 */
import { parentPort } from 'node:worker_threads'
import { synthesizeWav } from './synth.ts'
import type { SongSound } from './synth.ts'

export interface SynthJob {
  id: number
  sound: SongSound
  rate: number
  channels: number
}

parentPort?.on('message', (job: SynthJob) => {
  try {
    const bytes = synthesizeWav(job.sound, job.rate, job.channels)
    const copy = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    parentPort!.postMessage(
      { id: job.id, bytes: copy },
      bytes.byteOffset === 0 ? [copy.buffer as ArrayBuffer] : [],
    )
  } catch (error) {
    parentPort!.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) })
  }
})
