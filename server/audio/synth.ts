import { Rng } from './prng.ts'
import { wavFrames } from './formats.ts'

const TABLE_SIZE = 8192
const SINE = new Float32Array(TABLE_SIZE + 1)
for (let i = 0; i <= TABLE_SIZE; i++) SINE[i] = Math.sin((2 * Math.PI * i) / TABLE_SIZE)

const PROGRESSIONS = [
  [0, 4, 5, 3],
  [5, 3, 0, 4],
  [0, 5, 3, 4],
  [0, 3, 4, 3],
  [0, 2, 3, 4],
  [3, 4, 0, 0],
]
const MAJOR = [0, 2, 4, 5, 7, 9, 11]
const MINOR = [0, 2, 3, 5, 7, 8, 10]

const midiHz = (m: number): number => 440 * Math.pow(2, (m - 69) / 12)

export interface SongSound {
  seed: number
  tempo: number
  durationMs: number
}

/** Adds a tone to `out`: a few harmonics under an attack/decay envelope. */
function tone(
  out: Float32Array,
  rate: number,
  startSec: number,
  lengthSec: number,
  hz: number,
  gain: number,
  harmonics: readonly number[],
  decay: number,
  attackSec: number,
): void {
  const start = Math.floor(startSec * rate)
  const end = Math.min(out.length, start + Math.floor(lengthSec * rate))
  const nyquist = rate / 2
  const usable = harmonics
    .map((amp, i) => ({ amp, step: ((hz * (i + 1)) / rate) * TABLE_SIZE }))
    .filter((p, i) => hz * (i + 1) < nyquist * 0.9 && p.amp !== 0)
  const count = usable.length
  if (count === 0) return
  const amps = Float64Array.from(usable, (p) => p.amp)
  const steps = Float64Array.from(usable, (p) => p.step)
  const phases = new Float64Array(count)
  const attack = Math.max(1, Math.floor(attackSec * rate))
  const release = Math.max(1, Math.floor(0.03 * rate))
  const decayPerSample = Math.exp(-decay / rate)
  let env = 1
  for (let s = start, k = 0; s < end; s++, k++) {
    let v = 0
    for (let p = 0; p < count; p++) {
      const ph = phases[p]
      v += SINE[ph | 0] * amps[p]
      let next = ph + steps[p]
      if (next >= TABLE_SIZE) next -= TABLE_SIZE
      phases[p] = next
    }
    let shape = env
    if (k < attack) shape *= k / attack
    const left = end - s
    if (left < release) shape *= left / release
    out[s] += v * shape * gain
    env *= decayPerSample
  }
}

function kick(out: Float32Array, rate: number, startSec: number, gain: number): void {
  const start = Math.floor(startSec * rate)
  const end = Math.min(out.length, start + Math.floor(0.18 * rate))
  let phase = 0
  for (let s = start, k = 0; s < end; s++, k++) {
    const t = k / rate
    const hz = 50 + 90 * Math.exp(-t * 30)
    phase += (hz / rate) * TABLE_SIZE
    while (phase >= TABLE_SIZE) phase -= TABLE_SIZE
    out[s] += SINE[phase | 0] * Math.exp(-t * 18) * gain
  }
}

function hat(out: Float32Array, rate: number, startSec: number, gain: number, rng: Rng): void {
  const start = Math.floor(startSec * rate)
  const end = Math.min(out.length, start + Math.floor(0.04 * rate))
  let prev = 0
  for (let s = start, k = 0; s < end; s++, k++) {
    const white = rng.next() * 2 - 1
    const high = white - prev // crude high-pass
    prev = white
    out[s] += high * Math.exp((-k / rate) * 90) * gain
  }
}

/**
 * A short deterministic piece for one song: a four-chord loop with pad, bass, a plucked melody and a light
 * beat, at the song's tempo and exact duration. Returns the channels as floats in [-1, 1].
 */
function render(sound: SongSound, rate: number, channels: number): Float32Array[] {
  const rng = new Rng(sound.seed)
  const frames = wavFrames(sound.durationMs, rate)
  const pad = new Float32Array(frames)
  const low = new Float32Array(frames)
  const lead = new Float32Array(frames)
  const beat = sound.durationMs / 1000 > 0 ? 60 / sound.tempo : 0.5
  const bar = beat * 4
  const root = 48 + rng.int(0, 11)
  const scale = rng.chance(0.6) ? MAJOR : MINOR
  const progression = rng.pick(PROGRESSIONS)
  const degree = (d: number, octave: number) =>
    root + 12 * octave + scale[((d % 7) + 7) % 7] + 12 * Math.floor(d / 7)
  const seconds = sound.durationMs / 1000
  let melodyStep = rng.int(0, 6)
  const rhythm = Array.from({ length: 8 }, () => rng.chance(0.7))
  for (let b = 0, t = 0; t < seconds; b++, t += bar) {
    const chord = progression[b % progression.length]
    for (const d of [chord, chord + 2, chord + 4]) {
      tone(pad, rate, t, bar, midiHz(degree(d, 1)), 0.07, [1, 0.25, 0.1], 0.4, 0.15)
    }
    tone(low, rate, t, beat * 2, midiHz(degree(chord, -1)), 0.22, [1, 0.4, 0.15], 1.5, 0.01)
    tone(low, rate, t + beat * 2, beat * 2, midiHz(degree(chord, -1)), 0.18, [1, 0.4, 0.15], 1.5, 0.01)
    if (b > 0) {
      kick(low, rate, t, 0.35)
      kick(low, rate, t + beat * 2, 0.3)
      for (let h = 0; h < 4; h++) hat(low, rate, t + beat * h + beat / 2, 0.05, rng)
    }
    for (let e = 0; e < 8; e++) {
      if (!rhythm[e] || b === 0) continue
      melodyStep += rng.pick([-2, -1, -1, 0, 1, 1, 2])
      melodyStep = Math.max(-3, Math.min(9, melodyStep))
      const onChord = e % 2 === 0 ? chord + 2 * Math.round((melodyStep - chord) / 2) : melodyStep
      tone(
        lead,
        rate,
        t + (e * beat) / 2,
        beat * 0.9,
        midiHz(degree(onChord, 2)),
        0.16,
        [1, 0.5, 0.2, 0.1],
        4,
        0.005,
      )
    }
  }
  const fadeIn = Math.floor(0.05 * rate)
  const fadeOut = Math.min(frames, Math.floor(1.5 * rate))
  const out: Float32Array[] = []
  for (let c = 0; c < channels; c++) {
    const ch = new Float32Array(frames)
    const padGain = channels === 2 ? (c === 0 ? 0.9 : 1.1) : 1
    const leadGain = channels === 2 ? (c === 0 ? 1.2 : 0.8) : 1
    for (let s = 0; s < frames; s++) {
      let v = pad[s] * padGain + low[s] + lead[s] * leadGain
      if (s < fadeIn) v *= s / fadeIn
      const toEnd = frames - s
      if (toEnd < fadeOut) v *= toEnd / fadeOut
      ch[s] = v > 1 ? 1 : v < -1 ? -1 : v
    }
    out.push(ch)
  }
  return out
}

/** A complete 16-bit PCM WAV file for the song at the given rate and channel count. */
export function synthesizeWav(sound: SongSound, rate: number, channels: number): Buffer {
  const data = render(sound, rate, channels)
  const frames = data[0].length
  const blockAlign = channels * 2
  const buf = Buffer.alloc(44 + frames * blockAlign)
  buf.write('RIFF', 0, 'ascii')
  buf.writeUInt32LE(36 + frames * blockAlign, 4)
  buf.write('WAVE', 8, 'ascii')
  buf.write('fmt ', 12, 'ascii')
  buf.writeUInt32LE(16, 16)
  buf.writeUInt16LE(1, 20)
  buf.writeUInt16LE(channels, 22)
  buf.writeUInt32LE(rate, 24)
  buf.writeUInt32LE(rate * blockAlign, 28)
  buf.writeUInt16LE(blockAlign, 32)
  buf.writeUInt16LE(16, 34)
  buf.write('data', 36, 'ascii')
  buf.writeUInt32LE(frames * blockAlign, 40)
  const pcm = new Int16Array(buf.buffer, buf.byteOffset + 44, frames * channels)
  for (let c = 0; c < channels; c++) {
    const ch = data[c]
    for (let s = 0, o = c; s < frames; s++, o += channels) pcm[o] = Math.round(ch[s] * 32767)
  }
  return buf
}
