/**
 * Loudness of a song measured from its samples (no tags needed): integrated loudness after EBU R128 /
 * ITU-R BS.1770 (K-weighting, 400 ms blocks every 100 ms, absolute gate −70 LUFS, relative gate −10 LU)
 * and true peak (4× oversampled). Streaming: `push` takes any number of frames at a time and the meter
 * keeps one number per 100 ms plus a few filter states, so a 10-minute song costs about 50 KB to measure,
 * never its decoded PCM. Pure arithmetic (no DOM, no Node): it runs in a worker or a utility process.
 */

export interface LoudnessResult {
  /** Integrated loudness in LUFS; `-Infinity` for silence (nothing passes the gates). */
  integrated: number
  /** True peak in dBTP (0 = full scale). */
  truePeak: number
  /** Seconds measured. */
  seconds: number
}

export interface Biquad {
  b0: number
  b1: number
  b2: number
  a1: number
  a2: number
}

/**
 * The two K-weighting stages for any sample rate, from the analogue filters BS.1770 describes (a high
 * shelf of about +4 dB above 1.5 kHz, then a high-pass near 38 Hz), through the bilinear transform. At
 * 48 kHz they equal the coefficients tabled in BS.1770.
 */
export function kWeighting(sampleRate: number): [Biquad, Biquad] {
  const shelfF0 = 1681.974450955533
  const shelfGain = 3.999843853973347
  const shelfQ = 0.7071752369554196
  let k = Math.tan((Math.PI * shelfF0) / sampleRate)
  const vh = 10 ** (shelfGain / 20)
  const vb = vh ** 0.4996667741545416
  let a0 = 1 + k / shelfQ + k * k
  const shelf: Biquad = {
    b0: (vh + (vb * k) / shelfQ + k * k) / a0,
    b1: (2 * (k * k - vh)) / a0,
    b2: (vh - (vb * k) / shelfQ + k * k) / a0,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / shelfQ + k * k) / a0,
  }
  const passF0 = 38.13547087602444
  const passQ = 0.5003270373238773
  k = Math.tan((Math.PI * passF0) / sampleRate)
  a0 = 1 + k / passQ + k * k
  const highPass: Biquad = {
    b0: 1,
    b1: -2,
    b2: 1,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / passQ + k * k) / a0,
  }
  return [shelf, highPass]
}

/** Taps per phase of the true-peak interpolator (a Hann-windowed sinc). */
const TP_TAPS = 16
const TP_PHASES = 4

function interpolatorPhases(): Float64Array[] {
  const phases: Float64Array[] = []
  for (let p = 1; p < TP_PHASES; p++) {
    const taps = new Float64Array(TP_TAPS)
    const fraction = p / TP_PHASES
    for (let i = 0; i < TP_TAPS; i++) {
      // Sample i of the history sits at time (i - TP_TAPS/2 + 1) relative to the newest-but-half point.
      const t = i - TP_TAPS / 2 + 1 - fraction
      const sinc = t === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t)
      const window = 0.5 + 0.5 * Math.cos((Math.PI * t) / (TP_TAPS / 2 + 1))
      taps[i] = sinc * window
    }
    phases.push(taps)
  }
  return phases
}

const BLOCK_SUBBLOCKS = 4
const ABSOLUTE_GATE = -70
const RELATIVE_GATE = -10

export interface LoudnessMeter {
  /** Frames of every channel (all the same length), as floats in [-1, 1]. */
  push(channels: readonly Float32Array[]): void
  result(): LoudnessResult
}

/**
 * A streaming meter. `channels` is how many the song has; a mono song is measured as it is heard, on two
 * speakers (dual mono, +3 dB over one channel), so mono and stereo songs come out even.
 */
export function createLoudnessMeter(sampleRate: number, channels: number): LoudnessMeter {
  const [shelf, highPass] = kWeighting(sampleRate)
  const weight = channels === 1 ? 2 : 1
  const state = Array.from({ length: channels }, () => new Float64Array(8))
  const history = Array.from({ length: channels }, () => new Float64Array(TP_TAPS))
  const phases = interpolatorPhases()
  const subblockFrames = Math.round(sampleRate / 10)
  /** Mean square (summed over channels) of each complete 100 ms sub-block. */
  const subblocks: number[] = []
  let partial = 0
  let partialFrames = 0
  let peak = 0
  let frames = 0

  function push(input: readonly Float32Array[]) {
    const length = input[0]?.length ?? 0
    for (let i = 0; i < length; i++) {
      let energy = 0
      for (let c = 0; c < channels; c++) {
        const x = input[c][i]
        // K-weighting: two direct-form-I biquads; s holds x1, x2, y1, y2 of each stage.
        const s = state[c]
        const y1 = shelf.b0 * x + shelf.b1 * s[0] + shelf.b2 * s[1] - shelf.a1 * s[2] - shelf.a2 * s[3]
        s[1] = s[0]
        s[0] = x
        s[3] = s[2]
        s[2] = y1
        const y2 =
          highPass.b0 * y1 + highPass.b1 * s[4] + highPass.b2 * s[5] - highPass.a1 * s[6] - highPass.a2 * s[7]
        s[5] = s[4]
        s[4] = y1
        s[7] = s[6]
        s[6] = y2
        energy += y2 * y2
        // True peak: the sample itself and three points between it and its neighbours.
        const h = history[c]
        h.copyWithin(0, 1)
        h[TP_TAPS - 1] = x
        const magnitude = Math.abs(x)
        if (magnitude > peak) peak = magnitude
        for (const taps of phases) {
          let v = 0
          for (let t = 0; t < TP_TAPS; t++) v += taps[t] * h[t]
          const m = Math.abs(v)
          if (m > peak) peak = m
        }
      }
      partial += energy * weight
      if (++partialFrames === subblockFrames) {
        subblocks.push(partial / subblockFrames)
        partial = 0
        partialFrames = 0
      }
    }
    frames += length
  }

  function result(): LoudnessResult {
    const blocks: number[] = []
    for (let i = BLOCK_SUBBLOCKS - 1; i < subblocks.length; i++) {
      let sum = 0
      for (let j = 0; j < BLOCK_SUBBLOCKS; j++) sum += subblocks[i - j]
      blocks.push(sum / BLOCK_SUBBLOCKS)
    }
    const loudness = (power: number) => -0.691 + 10 * Math.log10(power)
    const aboveAbsolute = blocks.filter((z) => loudness(z) > ABSOLUTE_GATE)
    const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length
    let integrated = Number.NEGATIVE_INFINITY
    if (aboveAbsolute.length > 0) {
      const relative = loudness(mean(aboveAbsolute)) + RELATIVE_GATE
      const gated = aboveAbsolute.filter((z) => loudness(z) > relative)
      if (gated.length > 0) integrated = loudness(mean(gated))
    }
    return {
      integrated,
      truePeak: peak > 0 ? 20 * Math.log10(peak) : Number.NEGATIVE_INFINITY,
      seconds: frames / sampleRate,
    }
  }

  return { push, result }
}
