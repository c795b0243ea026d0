/**
 * Streaming time-stretch with the pitch kept (WSOLA: waveform-similarity overlap-add), for playback
 * speed. Pure and carried across chunks like the resampler (`resample.ts`): a song pushed in chunks comes
 * out as one continuous signal `1 / speed` times as long. At speed 1 nothing is processed (the samples
 * are copied as they are).
 *
 * How: Hann-windowed frames of 40 ms are laid down every 20 ms of output (`hop`); frame k is read from
 * the input near `k · hop · speed`, shifted by up to ±10 ms to where the waveform best continues the
 * previous frame (normalised cross-correlation over their overlap, on the channels' sum: a coarse search
 * on every `step`-th sample and offset, then a fine one around the best), so the overlap-add adds waves
 * in phase and the pitch is that of the input.
 */

export interface Stretcher {
  /** Stretches the next part of every channel; the output lags the input by about a frame. */
  push(input: readonly Float32Array[]): Float32Array[]
  /** After the last input: the rest, so that the whole output is `round(input length / speed)` frames. */
  flush(): Float32Array[]
}

export const FRAME_SECONDS = 0.04
export const TOLERANCE_SECONDS = 0.01

export function createStretcher(speed: number, channels: number, sampleRate: number): Stretcher {
  if (speed === 1) {
    return { push: (input) => input.map((channel) => channel.slice()), flush: () => empty(channels) }
  }
  const hop = Math.max(8, Math.round((FRAME_SECONDS * sampleRate) / 2))
  const frame = hop * 2
  const tolerance = Math.max(1, Math.round(TOLERANCE_SECONDS * sampleRate))
  /** Coarse search stride (samples and offsets): about 12 kHz resolution. */
  const step = Math.max(1, Math.round(sampleRate / 12000))
  const window = Float32Array.from(
    { length: frame },
    (_, n) => 0.5 - 0.5 * Math.cos((2 * Math.PI * n) / frame),
  )

  /** Input not yet used, from absolute input frame `bufferStart`; `mono` is the channels' sum. */
  let buffer: Float32Array[] = empty(channels)
  let mono = new Float32Array(0)
  let bufferStart = 0
  let received = 0
  /** Frames laid down so far, and where the last one was read from (absolute input frame). */
  let frames = 0
  let previous = 0
  /** Overlap-add accumulator: output from the next unfinished sample on. */
  const sum = Array.from({ length: channels }, () => new Float32Array(frame))
  let emitted = 0

  function append(input: readonly Float32Array[], length: number) {
    const keep = buffer[0].length
    buffer = buffer.map((old, c) => {
      const joined = new Float32Array(keep + length)
      joined.set(old)
      if (input[c]) joined.set(input[c].subarray(0, length), keep)
      return joined
    })
    mono = new Float32Array(keep + length)
    for (const channel of buffer) for (let i = 0; i < mono.length; i++) mono[i] += channel[i]
  }

  /** Where frame `frames` is read from (absolute), or undefined when the input does not reach far enough. */
  function chooseStart(available: number): number | undefined {
    if (frames === 0) return frame <= available - bufferStart ? 0 : undefined
    const nominal = Math.round(frames * hop * speed)
    if (nominal + tolerance + frame > available) return undefined
    const reference = previous + hop - bufferStart
    const low = Math.max(bufferStart, nominal - tolerance) - bufferStart
    const high = nominal + tolerance - bufferStart
    let best = low
    let bestScore = Number.NEGATIVE_INFINITY
    const score = (at: number, stride: number) => {
      let cross = 0
      let energy = 1e-9
      for (let i = 0; i < hop; i += stride) {
        const y = mono[at + i]
        cross += mono[reference + i] * y
        energy += y * y
      }
      return cross / Math.sqrt(energy)
    }
    for (let at = low; at <= high; at += step) {
      const value = score(at, step)
      if (value > bestScore) [best, bestScore] = [at, value]
    }
    const coarse = best
    bestScore = Number.NEGATIVE_INFINITY
    for (let at = Math.max(low, coarse - step + 1); at <= Math.min(high, coarse + step - 1); at++) {
      const value = score(at, 1)
      if (value > bestScore) [best, bestScore] = [at, value]
    }
    return best + bufferStart
  }

  /** Lays down every frame the input allows (`available`: absolute end), emitting finished output. */
  function run(available: number, limit = Number.POSITIVE_INFINITY): Float32Array[] {
    const parts: Float32Array[][] = []
    while (emitted < limit) {
      const start = chooseStart(available)
      if (start === undefined) break
      const from = start - bufferStart
      for (let c = 0; c < channels; c++) {
        const x = buffer[c]
        const out = sum[c]
        // The first frame starts the song at full level instead of fading in.
        if (frames === 0) for (let n = 0; n < frame; n++) out[n] += (n < hop ? 1 : window[n]) * x[from + n]
        else for (let n = 0; n < frame; n++) out[n] += window[n] * x[from + n]
      }
      previous = start
      frames++
      parts.push(sum.map((out) => out.slice(0, hop)))
      for (const out of sum) {
        out.copyWithin(0, hop)
        out.fill(0, frame - hop)
      }
      emitted += hop
    }
    // Drop the input no later frame reads: before both the next search and the next reference.
    const drop = Math.min(Math.round(frames * hop * speed) - tolerance, previous + hop) - bufferStart
    if (frames > 0 && drop > 0) {
      buffer = buffer.map((channel) => channel.slice(drop))
      mono = mono.slice(drop)
      bufferStart += drop
    }
    return join(parts, channels)
  }

  return {
    push(input) {
      const length = input[0]?.length ?? 0
      if (length === 0) return empty(channels)
      append(input, length)
      received += length
      return run(received)
    },
    flush() {
      const target = Math.round(received / speed)
      if (emitted >= target) return empty(channels)
      // Silence after the end, so the last frames can be laid down; the output is cut at the target.
      const before = emitted
      const padding = Math.ceil((target - emitted) * speed) + frame * 2 + tolerance * 2
      append([], padding)
      const rest = run(received + padding, target)
      return rest.map((channel) => channel.subarray(0, target - before).slice())
    },
  }
}

function empty(channels: number): Float32Array[] {
  return Array.from({ length: channels }, () => new Float32Array(0))
}

function join(parts: Float32Array[][], channels: number): Float32Array[] {
  const length = parts.reduce((total, part) => total + part[0].length, 0)
  return Array.from({ length: channels }, (_, c) => {
    const out = new Float32Array(length)
    let at = 0
    for (const part of parts) {
      out.set(part[c], at)
      at += part[c].length
    }
    return out
  })
}
