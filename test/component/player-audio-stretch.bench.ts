import { bench, describe } from 'vitest'
import { createStretcher } from '@renderer/services/player/audio/stretch'

/**
 * Time-stretch cost (`stretch.ts`): each iteration stretches 10 s of stereo 48 kHz music-like audio,
 * fed in the output's 5 s chunks, so the mean time ÷ 10 is the cost per second of input (÷ 10 × speed
 * per second played). Figures, not pass/fail:
 * `npx vitest bench --run --project component test/component/player-audio-stretch.bench.ts`.
 */

const RATE = 48000
const SECONDS = 10
const CHUNK = 5 * RATE

/** Chords with a beat and a little noise, a little different in each channel. */
function music(seconds: number): Float32Array[] {
  let seed = 1
  const noise = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 0.05
  return [0, 1].map((c) =>
    Float32Array.from({ length: seconds * RATE }, (_, i) => {
      const t = i / RATE
      const beat = 0.6 + 0.4 * Math.exp(-((t * 2) % 1) * 6)
      const chord = [220, 277.2, 329.6, 440 * (1 + c * 0.002)]
      return beat * chord.reduce((sum, hz) => sum + 0.2 * Math.sin(2 * Math.PI * hz * t), 0) + noise()
    }),
  )
}

const input = music(SECONDS)

function stretch(speed: number) {
  const stretcher = createStretcher(speed, 2, RATE)
  let frames = 0
  for (let at = 0; at < input[0].length; at += CHUNK)
    frames += stretcher.push(input.map((channel) => channel.subarray(at, at + CHUNK)))[0].length
  frames += stretcher.flush()[0].length
  if (frames !== Math.round(input[0].length / speed)) throw new Error(`${frames} frames at ${speed}×`)
}

describe('stretch 10 s of stereo 48 kHz', () => {
  for (const speed of [0.5, 0.75, 1.5, 2]) bench(`at ${speed}×`, () => stretch(speed), { iterations: 10 })
})
