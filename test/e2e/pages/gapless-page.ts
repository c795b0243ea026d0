import { createLoad } from '@renderer/services/player/audio/media-load'
import { Track } from '@renderer/services/player/audio/track'
import { prepareChunksInPage } from '@renderer/services/player/audio/chunk-client'

// Bundled as one file: the chunk worker's own file is not served, so chunks are prepared in the page.
prepareChunksInPage()

/**
 * Runs in Chromium (bundled by `codec-gapless.test.ts` through `openCodecPage`): songs played one after
 * the other by the player's own `Track` (opened by its first bytes, decoded by WebCodecs, trimmed,
 * scheduled in chunks through its gains), each started on the frame where the one before ends, as the
 * output starts a following song, and the graph rendered by an `OfflineAudioContext`.
 */

/** A least-squares fit of a·sin + b·cos at `hz` over `[from, to)`: amplitude and phase (radians). */
function fit(samples: Float32Array, rate: number, hz: number, from: number, to: number) {
  const w = (2 * Math.PI * hz) / rate
  let ss = 0
  let cc = 0
  let sc = 0
  let ys = 0
  let yc = 0
  for (let n = from; n < to; n++) {
    const s = Math.sin(w * n)
    const c = Math.cos(w * n)
    ss += s * s
    cc += c * c
    sc += s * c
    ys += samples[n] * s
    yc += samples[n] * c
  }
  const det = ss * cc - sc * sc
  const a = (ys * cc - yc * sc) / det
  const b = (yc * ss - ys * sc) / det
  return { a, b, w }
}

/**
 * Plays `urls` gaplessly and says, of what the graph rendered: where each song ended (frames), the
 * phase step at each boundary (ms: the second song's sine against the first's, continued), the
 * largest difference from the continued sine around each boundary and in the middle of the first song,
 * and the quietest period of the sine around each boundary (its level against the sine's: a gap is 0).
 */
export async function renderGapless(urls: readonly string[], rate: number, hz: number, seconds: number) {
  const context = new OfflineAudioContext(1, Math.ceil(seconds * rate), rate)
  const load = createLoad({})
  const ends: number[] = []
  let at = 0
  for (const url of urls) {
    const track = new Track(url, context as unknown as AudioContext, context.destination, load)
    await track.opened
    const start = at
    await track.startAt(0, 0, () => start)
    while (track.endTime === undefined) await track.pump()
    at = track.endTime
    ends.push(Math.round(at * rate))
  }
  const samples = (await context.startRendering()).getChannelData(0)
  const margin = 2048
  const first = fit(samples, rate, hz, margin, ends[0] - margin)
  const continued = (n: number) => first.a * Math.sin(first.w * n) + first.b * Math.cos(first.w * n)
  const largestOff = (from: number, to: number) => {
    let largest = 0
    for (let n = Math.max(0, from); n < Math.min(samples.length, to); n++)
      largest = Math.max(largest, Math.abs(samples[n] - continued(n)))
    return largest
  }
  /** The lowest level (RMS over one period of the sine) in `[from, to)`, against the sine's own. */
  const quietest = (from: number, to: number) => {
    const period = Math.round(rate / hz)
    const sineRms = Math.hypot(first.a, first.b) / Math.SQRT2
    let lowest = Number.POSITIVE_INFINITY
    for (let n = Math.max(0, from); n + period <= Math.min(samples.length, to); n++) {
      let sum = 0
      for (let k = n; k < n + period; k++) sum += samples[k] * samples[k]
      lowest = Math.min(lowest, Math.sqrt(sum / period) / sineRms)
    }
    return lowest
  }
  const boundaries = ends.slice(0, -1).map((boundary, i) => {
    const next = fit(samples, rate, hz, boundary + margin, ends[i + 1] - margin)
    // The phase of the next song's sine against the first's: a gap or an overlap of k frames is a
    // step of k·w (taken within ±half a period).
    let step = Math.atan2(next.b, next.a) - Math.atan2(first.b, first.a)
    step = Math.atan2(Math.sin(step), Math.cos(step))
    return {
      at: boundary,
      stepMs: (-step / first.w / rate) * 1000,
      largestOff: largestOff(boundary - 1024, boundary + 1024),
      quietest: quietest(boundary - 2048, boundary + 2048),
    }
  })
  return {
    ends,
    amplitude: Math.hypot(first.a, first.b),
    middleOff: largestOff(margin, ends[0] - margin),
    boundaries,
  }
}

declare global {
  interface Window {
    gapless: { renderGapless: typeof renderGapless }
  }
}
window.gapless = { renderGapless }
// `openCodecPage` waits for `window.codec`.
;(window as unknown as { codec: object }).codec = {}
