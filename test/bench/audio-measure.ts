/**
 * The analysis behind `bench:audio`'s sections on the album boundaries, speed, crossfade and the
 * equaliser: pure functions over recorded samples (one channel as floats at `rate`), unit-tested in
 * `test/unit/bench-audio-measure.test.ts` on signals made there with known answers.
 */

/** Amplitude of the `hz` component of `x[from, from + n)` (Goertzel): a sine's peak for whole periods. */
export function toneAmplitude(x: Float32Array, from: number, n: number, hz: number, rate: number): number {
  const w = (2 * Math.PI * hz) / rate
  let re = 0
  let im = 0
  for (let i = 0; i < n; i++) {
    const v = x[from + i] ?? 0
    re += v * Math.cos(w * i)
    im -= v * Math.sin(w * i)
  }
  return (2 * Math.hypot(re, im)) / n
}

const dB = (gain: number) => 20 * Math.log10(Math.max(gain, 1e-12))

/**
 * The frequency of the strongest component between `lo` and `hi` Hz in `x[from, from + n)`: a Hann-windowed
 * DFT on a 0.5 Hz grid, refined by a parabola through the three points around the peak (log magnitude).
 */
export function peakFrequency(
  x: Float32Array,
  from: number,
  n: number,
  lo: number,
  hi: number,
  rate: number,
): number {
  const windowed = new Float32Array(n)
  for (let i = 0; i < n; i++) windowed[i] = (x[from + i] ?? 0) * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n))
  const step = 0.5
  const magnitudes: number[] = []
  for (let hz = lo; hz <= hi; hz += step) magnitudes.push(toneAmplitude(windowed, 0, n, hz, rate))
  let best = 1
  for (let i = 1; i < magnitudes.length - 1; i++) if (magnitudes[i] > magnitudes[best]) best = i
  const [a, b, c] = [magnitudes[best - 1], magnitudes[best], magnitudes[best + 1]].map((m) =>
    Math.log(m + 1e-20),
  )
  const shift = a - 2 * b + c === 0 ? 0 : (0.5 * (a - c)) / (a - 2 * b + c)
  return lo + (best + shift) * step
}

/**
 * Where `reference` (a function of time in seconds) from `t0` over `n` frames is heard in `rec`, searched
 * for frames `guess - span` to `guess + span`: the recording's (fractional) frame of time `t0`, refined by
 * a parabola through the correlation's peak, and the normalised correlation there (1: the same waveform,
 * at any gain).
 */
export function locate(
  rec: Float32Array,
  reference: (t: number) => number,
  t0: number,
  n: number,
  guess: number,
  span: number,
  rate: number,
): { frame: number; correlation: number } {
  const snippet = Float64Array.from({ length: n }, (_, i) => reference(t0 + i / rate))
  const energy = snippet.reduce((sum, v) => sum + v * v, 0)
  const at = (lag: number) => {
    let dot = 0
    let own = 0
    for (let i = 0; i < n; i++) {
      const v = rec[lag + i] ?? 0
      dot += v * snippet[i]
      own += v * v
    }
    return dot / Math.sqrt(own * energy || 1e-30)
  }
  const from = Math.max(0, Math.round(guess - span))
  const to = Math.min(rec.length - n, Math.round(guess + span))
  let best = { lag: from, correlation: -2 }
  for (let lag = from; lag <= to; lag++) {
    const correlation = at(lag)
    if (correlation > best.correlation) best = { lag, correlation }
  }
  const [a, b, c] = [at(best.lag - 1), best.correlation, at(best.lag + 1)]
  const shift = a - 2 * b + c === 0 ? 0 : (0.5 * (a - c)) / (a - 2 * b + c)
  return { frame: best.lag + Math.max(-0.5, Math.min(0.5, shift)), correlation: best.correlation }
}

export interface Boundary {
  /** Time added at the boundary (ms): + a gap or frames played twice, − frames lost. */
  addedMs: number
  /** The correlations of the stretches before and after with the continuous signal (1 = the same). */
  correlation: [number, number]
  /** The longest run of silence within 50 ms of the boundary (ms). */
  silenceMs: number
  /** The largest difference from the continued signal within 5 ms of it, as a fraction of its peak. */
  largestOff: number
  /** The same 100 ms before the boundary, inside the track: what the codec itself leaves. */
  ownOff: number
}

/**
 * A continuous signal (`reference`, of time in seconds) cut into tracks at `boundaries` (s) and played
 * one after the other, as recorded in `rec` from about frame `start` (where time 0 is heard, within
 * 100 ms): at each boundary, where the stretch 60–20 ms before it and the one 20–60 ms after it are heard
 * (each by correlation with the signal): the difference between the two offsets is the time the
 * boundary added. Each stretch is searched 300 ms either way of where it should be (2 s when nothing
 * there matches), so a gap up to that is measured too.
 */
export function measureBoundaries(
  rec: Float32Array,
  reference: (t: number) => number,
  boundaries: number[],
  start: number,
  rate: number,
  peak: number,
): { start: number; boundaries: Boundary[] } {
  const n = Math.round(0.04 * rate)
  // Searched 300 ms either way of where it should be, then 2 s when nothing there matches well (a
  // drop-out inside the track, under load, moves what follows).
  const find = (t: number, guess: number) => {
    const near = locate(rec, reference, t, n, guess, 0.3 * rate, rate)
    return near.correlation > 0.9 ? near : locate(rec, reference, t, n, guess, 2 * rate, rate)
  }
  const first = find(0.05, start + 0.05 * rate)
  let offset = first.frame - 0.05 * rate
  const found: Boundary[] = []
  for (const t of boundaries) {
    const before = find(t - 0.06, offset + (t - 0.06) * rate)
    const offBefore = before.frame - (t - 0.06) * rate
    const after = find(t + 0.02, offBefore + (t + 0.02) * rate)
    const offAfter = after.frame - (t + 0.02) * rate
    const at = Math.round(offBefore + t * rate)
    // The gain of the recording against the signal, from the stretch before.
    let dot = 0
    let own = 0
    for (let i = 0; i < n; i++) {
      const r = Math.round(offBefore + (t - 0.06) * rate) + i
      const v = reference((r - offBefore) / rate)
      dot += (rec[r] ?? 0) * v
      own += v * v
    }
    const gain = dot / (own || 1e-30)
    const largestOffAround = (centre: number, offBeforeIt: number, offAfterIt: number) => {
      let largest = 0
      // Whole frames (at 44.1 kHz, 5 ms is 220.5 of them).
      for (let r = Math.ceil(centre - 0.005 * rate); r < centre + 0.005 * rate; r++) {
        const offsetHere = r < centre ? offBeforeIt : offAfterIt
        largest = Math.max(largest, Math.abs((rec[r] ?? 0) - gain * reference((r - offsetHere) / rate)))
      }
      return largest / (Math.abs(gain) * peak || 1e-30)
    }
    let silence = 0
    let run = 0
    for (let r = at - 0.05 * rate; r < at + 0.05 * rate; r++) {
      run = Math.abs(rec[r] ?? 0) < 0.001 ? run + 1 : 0
      silence = Math.max(silence, run)
    }
    found.push({
      addedMs: ((offAfter - offBefore) / rate) * 1000,
      correlation: [before.correlation, after.correlation],
      silenceMs: (silence / rate) * 1000,
      largestOff: largestOffAround(Math.round(offAfter + t * rate), offBefore, offAfter),
      ownOff: largestOffAround(Math.round(offBefore + (t - 0.1) * rate), offBefore, offBefore),
    })
    offset = offAfter
  }
  return { start: first.frame - 0.05 * rate, boundaries: found }
}

/** A tone's amplitude every `hop` frames over windows of `window` frames in [from, to). */
export function toneTrack(
  x: Float32Array,
  from: number,
  to: number,
  hz: number,
  rate: number,
  window: number,
  hop: number,
): number[] {
  const out: number[] = []
  for (let at = from; at + window <= to; at += hop) out.push(toneAmplitude(x, at, window, hz, rate))
  return out
}

/**
 * The onsets of bursts of `hz` in [from, to) (frames): where its amplitude (10 ms windows every 1 ms)
 * first rises over half the bursts' level (the 95th percentile over the span), at least `apart` frames
 * after the one before. The window delays each onset by the same 5 ms, which spacings cancel.
 */
export function burstOnsets(
  x: Float32Array,
  from: number,
  to: number,
  hz: number,
  rate: number,
  apart: number,
): number[] {
  const hop = Math.round(rate / 1000)
  const levels = toneTrack(x, from, to, hz, rate, 10 * hop, hop)
  const sorted = [...levels].sort((a, b) => a - b)
  const threshold = 0.5 * sorted[Math.floor(sorted.length * 0.95)]
  const onsets: number[] = []
  for (let k = 1; k < levels.length; k++) {
    if (levels[k - 1] >= threshold || levels[k] < threshold) continue
    const frame = from + (k - 1 + (threshold - levels[k - 1]) / (levels[k] - levels[k - 1])) * hop
    if (!onsets.length || frame - onsets[onsets.length - 1] >= apart) onsets.push(frame)
  }
  return onsets
}

/**
 * The rate at which song time passes in a recording with a burst every `period` seconds of the song:
 * the onsets (frames) numbered by their expected spacing at `expectedSpeed` (a burst missed leaves a
 * number out), then the median of the slopes between every two of them (Theil–Sen: a drop-out that
 * moves the onsets after it moves few of the slopes), `period` over it in seconds.
 */
export function speedFromOnsets(
  onsets: number[],
  period: number,
  expectedSpeed: number,
  rate: number,
): number {
  if (onsets.length < 3) return Number.NaN
  const spacing = (period / expectedSpeed) * rate
  const numbers = onsets.map((frame) => Math.round((frame - onsets[0]) / spacing))
  const slopes: number[] = []
  for (let i = 0; i < onsets.length; i++)
    for (let j = i + 1; j < onsets.length; j++)
      if (numbers[j] > numbers[i]) slopes.push((onsets[j] - onsets[i]) / (numbers[j] - numbers[i]))
  slopes.sort((a, b) => a - b)
  const middle = slopes.length / 2
  const slope = slopes.length % 2 ? slopes[Math.floor(middle)] : (slopes[middle - 1] + slopes[middle]) / 2
  return period / (slope / rate)
}

/** Whether `x[from, from + n)` holds a drop-out: 0.5 ms or more of silence (under −60 dBFS) in a row. */
export function hasDropout(x: Float32Array, from: number, n: number, rate: number): boolean {
  let run = 0
  for (let i = from; i < from + n; i++) {
    run = Math.abs(x[i] ?? 0) < 0.001 ? run + 1 : 0
    if (run >= rate / 2000) return true
  }
  return false
}

export interface CrossfadeCurves {
  /** The overlap's length (s) from the fitted equal-power curves, and where it began (frame). */
  seconds: number
  startFrame: number
  /** Where the incoming song is first 40 dB under its level, to where the outgoing one last is (s). */
  heardSeconds: number
  /** The sum's level over the overlap against the songs' own (dB): its lowest and highest. */
  sumDb: [number, number]
  /** The largest difference of each song's level from the equal-power curve over the middle 80 % (dB). */
  curveOffDb: [number, number]
  /** Windows left out of the figures above because they hold a drop-out (`hasDropout`). */
  dropoutWindows: number
}

/**
 * A crossfade from a tone of `outHz` to one of `inHz` (of the same level) in `x[from, to)`: each tone's
 * amplitude in 10 ms windows every 10 ms (whole periods of both, so they do not leak into each other),
 * against its own level (the 90th percentile of its windows). Equal-power curves (cos out, sin in) make the share of the incoming, b² / (a² + b²), sin² of
 * the overlap's progress: its inverse is a line in time, fitted where the share is 5–95 %. Windows
 * holding a drop-out (the output starved, under load) are left out and counted.
 */
export function measureCrossfade(
  x: Float32Array,
  from: number,
  to: number,
  outHz: number,
  inHz: number,
  rate: number,
): CrossfadeCurves {
  const window = Math.round(rate / 100)
  const a = toneTrack(x, from, to, outHz, rate, window, window)
  const b = toneTrack(x, from, to, inHz, rate, window, window)
  const broken = a.map((_, k) => hasDropout(x, from + k * window, window, rate))
  // Each song's own level: the 90th percentile of its windows without a drop-out (a fade only lowers it).
  const level = (list: number[]) => {
    const clean = list.filter((_, k) => !broken[k]).sort((p, q) => p - q)
    return clean[Math.floor(clean.length * 0.9)]
  }
  const aLevel = level(a)
  const bLevel = level(b)
  const an = a.map((v) => v / aLevel)
  const bn = b.map((v) => v / bLevel)
  const points: Array<[number, number]> = []
  an.forEach((av, k) => {
    if (broken[k]) return
    const share = bn[k] ** 2 / (av ** 2 + bn[k] ** 2)
    if (share > 0.05 && share < 0.95) points.push([k + 0.5, (2 / Math.PI) * Math.asin(Math.sqrt(share))])
  })
  const mean = (list: number[]) => list.reduce((p, q) => p + q, 0) / list.length
  const [mx, my] = [mean(points.map((p) => p[0])), mean(points.map((p) => p[1]))]
  let sxy = 0
  let sxx = 0
  for (const [k, progress] of points) {
    sxy += (k - mx) * (progress - my)
    sxx += (k - mx) ** 2
  }
  const slope = sxy / sxx
  const k0 = mx - my / slope
  const length = 1 / slope
  let low = Number.POSITIVE_INFINITY
  let high = Number.NEGATIVE_INFINITY
  let outOff = 0
  let inOff = 0
  let dropoutWindows = 0
  for (let k = 0; k < an.length; k++) {
    const progress = (k + 0.5 - k0) / length
    if (progress < 0 || progress > 1) continue
    if (broken[k]) {
      dropoutWindows++
      continue
    }
    const sum = 10 * Math.log10(an[k] ** 2 + bn[k] ** 2 + 1e-24)
    low = Math.min(low, sum)
    high = Math.max(high, sum)
    if (progress < 0.1 || progress > 0.9) continue
    outOff = Math.max(outOff, Math.abs(dB(an[k]) - dB(Math.cos((Math.PI / 2) * progress))))
    inOff = Math.max(inOff, Math.abs(dB(bn[k]) - dB(Math.sin((Math.PI / 2) * progress))))
  }
  const firstIn = bn.findIndex((v, k) => v > 0.01 && !broken[k])
  let lastOut = an.length - 1
  while (lastOut > 0 && (an[lastOut] <= 0.01 || broken[lastOut])) lastOut--
  return {
    seconds: (length * window) / rate,
    startFrame: from + k0 * window,
    heardSeconds: ((lastOut - firstIn + 1) * window) / rate,
    sumDb: [low, high],
    curveOffDb: [outOff, inOff],
    dropoutWindows,
  }
}
