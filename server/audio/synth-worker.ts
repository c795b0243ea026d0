/**
 * A worker thread that synthesises demo audio, so a synthesis (hundreds of milliseconds for a lossless
 * file) never blocks the server's event loop. Runs as TypeScript under Node's type stripping (tests,
 * `npm run serve`) or as the built out/main/synth-worker.js (the app). Erasable syntax and explicit
 * extensions only.
 */
import { setPriority } from 'node:os'
import { parentPort } from 'node:worker_threads'
import { synthesizeWav } from './synth.ts'
import type { SongSound } from './synth.ts'

export interface SynthJob {
  id: number
  sound: SongSound
  rate: number
  channels: number
}

/**
 * Linux gives each thread its own nice value (`setpriority` on the calling thread): this thread's
 * synthesis, a burst of a whole core for a few hundred milliseconds per song, yields to everything else
 * on the machine, above all the audio of the player that asked for the song, while the server's own
 * thread keeps its priority. Elsewhere the call would lower the whole server, so it is not made.
 */
export const SYNTH_NICE = 19
if (process.platform === 'linux') {
  try {
    setPriority(SYNTH_NICE)
  } catch {
    // Not allowed here: synthesis runs at the server's priority.
  }
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
