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
  return dropoutsAcross([{ channels: rec, from, to, rate }])
}

/**
 * Runs of silence of at least 1 ms, in ms, across pieces played one after the other (the files of a
 * stretch of the queue, each from `from` to `to` at its own rate): a silent tail of one piece and the
 * silent head of the next are one run, as they are heard at a gapless boundary. A run still open at the
 * end is not counted (nor is one in a recording's window).
 */
export function dropoutsAcross(
  pieces: { channels: Float32Array[]; from: number; to: number; rate: number }[],
): number[] {
  return silenceRuns(pieces).map((run) => run.ms)
}

/** `dropoutsAcross`'s runs with where each began (ms from the first piece's `from`). */
export function silenceRuns(
  pieces: { channels: Float32Array[]; from: number; to: number; rate: number }[],
): { at: number; ms: number }[] {
  const found: { at: number; ms: number }[] = []
  let run = 0
  let elapsed = 0
  for (const { channels, from, to, rate } of pieces) {
    for (let i = Math.max(0, Math.round(from)); i < Math.min(to, channels[0].length); i++) {
      if (silentAt(channels, i)) run += 1000 / rate
      else {
        if (run >= 1 - 1e-9) found.push({ at: elapsed - run, ms: run })
        run = 0
      }
      elapsed += 1000 / rate
    }
  }
  return found
}

/**
 * The heard silences that are not the files' own: each heard run is matched, in order, with the next of
 * the files' runs its length is within `toleranceMs` of (a gapless boundary is heard up to a few ms
 * shorter or longer than the files' tail and head); what matches none is a drop-out.
 */
export function unmatchedRuns(heard: number[], own: number[], toleranceMs = 4): number[] {
  return unmatchedIndices(heard, own, toleranceMs).map((i) => heard[i]!)
}

/** `unmatchedRuns` as the indices of the heard runs. */
export function unmatchedIndices(heard: number[], own: number[], toleranceMs = 4): number[] {
  const left: number[] = []
  let next = 0
  heard.forEach((run, index) => {
    const at = own.findIndex((length, i) => i >= next && Math.abs(length - run) <= toleranceMs)
    if (at < 0) left.push(index)
    else next = at + 1
  })
  return left
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))
export const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]
/** Frames of the recording as milliseconds. */
export const ms = (frames: number) => (frames / RATE) * 1000
export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : String(n))
