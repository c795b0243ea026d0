import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'

/** The recording's rate (the null sink's): 48 kHz stereo. */
export const RATE = 48000
/** Below this (−60 dBFS) a recorded sample counts as silence. */
export const SILENT = 0.001

/** Children the audio bench started (parec, the busy core…): each killed by its id at the end. */
export const started: ChildProcess[] = []

export function run(command: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  started.push(child)
  return child
}

/** The recording: samples (interleaved stereo floats) and when each arrived, to map wall time to samples. */
export class Recorder {
  private chunks: Buffer[] = []
  private frames = 0
  /** The least-delayed estimate of the wall time of frame 0. */
  startMs = Number.POSITIVE_INFINITY
  private child?: ChildProcess
  /** `server`: the private PulseAudio's `PULSE_SERVER`, whose sink `bench` is recorded. */
  constructor(private server: string) {}
  start() {
    this.child = run(
      'parec',
      [
        '-d',
        'bench.monitor',
        '--format=s16le',
        `--rate=${RATE}`,
        '--channels=2',
        '--latency-msec=5',
        '--raw',
      ],
      { PULSE_SERVER: this.server },
    )
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk)
      this.frames += chunk.length / 4
      this.startMs = Math.min(this.startMs, Date.now() - (this.frames / RATE) * 1000)
    })
  }
  stop(): Float32Array[] {
    this.child?.kill()
    const all = Buffer.concat(this.chunks)
    const frames = Math.floor(all.length / 4)
    const left = new Float32Array(frames)
    const right = new Float32Array(frames)
    for (let i = 0; i < frames; i++) {
      left[i] = all.readInt16LE(i * 4) / 32768
      right[i] = all.readInt16LE(i * 4 + 2) / 32768
    }
    return [left, right]
  }
  frameAt(wallMs: number): number {
    return Math.round(((wallMs - this.startMs) / 1000) * RATE)
  }
}

export const silentAt = (rec: Float32Array[], i: number) =>
  Math.abs(rec[0][i]) < SILENT && Math.abs(rec[1][i]) < SILENT

/** The first frame over the silence threshold in [from, to) (the recording's end by default). */
export function firstSound(rec: Float32Array[], from: number, to = rec[0].length): number {
  let i = Math.max(0, Math.round(from))
  while (i < Math.min(to, rec[0].length) && silentAt(rec, i)) i++
  return i < Math.min(to, rec[0].length) ? i : Number.NaN
}

/** Runs of silence of at least 1 ms in [from, to) of a recording that should have none (a tone), in ms. */
export function dropouts(rec: Float32Array[], from: number, to: number, rate = RATE): number[] {
  const found: number[] = []
  let runStart = -1
  for (let i = Math.max(0, Math.round(from)); i < Math.min(to, rec[0].length); i++) {
    if (silentAt(rec, i)) {
      if (runStart < 0) runStart = i
    } else {
      if (runStart >= 0 && i - runStart >= rate / 1000) found.push(((i - runStart) / rate) * 1000)
      runStart = -1
    }
  }
  return found
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))
export const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]
/** Frames of the recording as milliseconds. */
export const ms = (frames: number) => (frames / RATE) * 1000
export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : String(n))
