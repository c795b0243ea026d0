/**
 * Streaming sample-rate conversion to the audio context's rate, carried across chunks so a song cut into
 * chunks plays as one continuous signal (an AudioBufferSourceNode resamples each buffer on its own,
 * which leaves a seam at every chunk). Cubic (Catmull-Rom) interpolation; the same rate passes through.
 */
export interface Resampler {
  /** Converts the next stretch of every channel; the output length follows from the carried phase. */
  push(input: readonly Float32Array[]): Float32Array[]
}

export function createResampler(fromRate: number, toRate: number, channels: number): Resampler {
  // The same rate: the samples as they are (the caller hands over fresh arrays and keeps none).
  if (fromRate === toRate) return { push: (input) => [...input] }
  const step = fromRate / toRate
  /** The last three input samples of each channel, before the next chunk's first. */
  const tail = Array.from({ length: channels }, () => new Float32Array(3))
  let primed = false
  /** Position of the next output sample, in input samples, relative to the chunk's first sample. */
  let position = 0

  return {
    push(input) {
      const length = input[0]?.length ?? 0
      if (length === 0) return input.map(() => new Float32Array(0))
      if (!primed) {
        // Before the first sample: repeat it, so the song starts on its own first value.
        for (let c = 0; c < channels; c++) tail[c].fill(input[c][0])
        primed = true
      }
      // Samples are x[-3..length-1]; x[-3..-1] from the tail. Interpolating at p needs x[i-1..i+2].
      const count = Math.max(0, Math.ceil((length - 2 - position) / step))
      const out = Array.from({ length: channels }, () => new Float32Array(count))
      for (let c = 0; c < channels; c++) {
        const x = input[c]
        const t = tail[c]
        const at = (i: number) => (i >= 0 ? x[i] : t[3 + i])
        for (let n = 0; n < count; n++) {
          const p = position + n * step
          const i = Math.floor(p)
          const f = p - i
          const y0 = at(i - 1)
          const y1 = at(i)
          const y2 = at(i + 1)
          const y3 = at(i + 2)
          out[c][n] =
            y1 + 0.5 * f * (y2 - y0 + f * (2 * y0 - 5 * y1 + 4 * y2 - y3 + f * (3 * (y1 - y2) + y3 - y0)))
        }
        t[0] = length >= 3 ? x[length - 3] : at(length - 3)
        t[1] = length >= 2 ? x[length - 2] : at(length - 2)
        t[2] = x[length - 1]
      }
      position = position + count * step - length
      return out
    },
  }
}
