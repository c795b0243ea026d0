import { createOutputGraph } from '@renderer/services/player/audio/graph'

/**
 * Runs in Chromium (bundled by `output-level.test.ts` through `openCodecPage`): the output's own graph
 * (transport, volume, equaliser stage, limiter, device) made on an `OfflineAudioContext`, a 997 Hz sine
 * of `amplitude` played into its transport gain at 1, rendered for 2 s. Says the level the second
 * second came out at against what went in (dB, by RMS) and its sample peak (dBFS).
 */
async function renderLevel(amplitude: number) {
  const rate = 48_000
  const context = new OfflineAudioContext(2, 2 * rate, rate)
  const output = createOutputGraph({ createContext: () => context as unknown as AudioContext })
  output.graph()
  output.transport.gain.value = 1
  const sine = context.createOscillator()
  sine.frequency.value = 997
  const level = context.createGain()
  level.gain.value = amplitude
  sine.connect(level).connect(output.transport)
  sine.start()
  const rendered = await context.startRendering()
  const samples = rendered.getChannelData(0).subarray(rate)
  let squares = 0
  let peak = 0
  for (const sample of samples) {
    squares += sample * sample
    peak = Math.max(peak, Math.abs(sample))
  }
  const rms = Math.sqrt(squares / samples.length)
  return { gainDb: 20 * Math.log10(rms / (amplitude / Math.SQRT2)), peakDbfs: 20 * Math.log10(peak) }
}

declare global {
  interface Window {
    graphLevel: { renderLevel: typeof renderLevel }
  }
}
window.graphLevel = { renderLevel }
// `openCodecPage` waits for `window.codec`.
;(window as unknown as { codec: object }).codec = {}
