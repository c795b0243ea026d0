import { EQ_BANDS } from '@shared/settings'
import { playSongs, waitForClock } from '../e2e/playback-support'
import { dropouts, firstSound, fmt, median, RATE, sleep } from './audio-record'
import type { Band } from './audio-measure-eq'
import { equaliserDb, toneLevelIn } from './audio-measure-eq'
import { burstOnsets, hasDropout, peakFrequency, speedFromOnsets, toneTrack } from './audio-measure'
import { keep, pausePlayer, savedSettings, setSound } from './audio-sections-kit'
import type { SectionRun } from './audio-sections-kit'
import { SPEED, SWEEP, sweepHz } from './audio-signals'

/** `bench:audio`'s sections played from tones: speed changes and the equaliser's response. */

const SPEEDS = [0.75, 1.25, 1.5, 2]
const dB = (amplitude: number) => 20 * Math.log10(Math.max(amplitude, 1e-12))
/** The tone's level (dB) in 10 ms windows every 2.5 ms over [from, to), those holding a drop-out left out. */
const cleanLevels = (x: Float32Array, from: number, to: number) => {
  const hop = RATE / 400
  return toneTrack(x, from, to, SPEED.hz, RATE, RATE / 100, hop)
    .map((amplitude, k) => (hasDropout(x, from + k * hop, RATE / 100, RATE) ? Number.NaN : dB(amplitude)))
    .filter((level) => !Number.isNaN(level))
}
const playbackRate = (page: SectionRun['page']) =>
  page.evaluate(`document.querySelector('[data-testid="player-audio"]').playbackRate`) as Promise<number>

/**
 * Speed: the speed song (a 1 kHz tone, a 2.5 kHz burst every 0.5 s of the song) played at 1×, then
 * changed with the sound panel's speed control to 0.75×, 1.25×, 1.5× and 2× while it plays, about 5 s
 * each. Over each stretch (from 1.2 s after the change to the next): the tone's frequency (the pitch,
 * kept: 1000 Hz), the bursts' spacing (song seconds a second: the speed), silences; at each change the
 * tone's lowest level (10 ms windows, those holding a drop-out left out: they are counted as silences)
 * within 1.2 s after it against the stretch before.
 */
export async function speedSection(run: SectionRun): Promise<void> {
  const { page } = run
  const song = run.songs.get(SPEED.title)
  if (!song) throw new Error(`${SPEED.title} is not in the library`)
  const recorder = run.recorder()
  recorder.start()
  await sleep(300)
  await playSongs(page, [song])
  await waitForClock(page, 0.5, 60_000)
  // From when the clock runs (a start under load can take seconds).
  const marks = [{ speed: 1, at: Date.now() }]
  // The panel open before the first change, so each change is one move of the control.
  await setSound(page, {})
  await sleep(3000)
  for (const speed of SPEEDS) {
    const at = Date.now()
    await setSound(page, { speed })
    for (let i = 0; i < 300 && (await playbackRate(page)) !== speed; i++) await sleep(50)
    marks.push({ speed, at })
    await sleep(5000)
  }
  const end = Date.now()
  const rec = recorder.stop()
  await keep(`speed-marks-${marks.map((m) => recorder.frameAt(m.at)).join('-')}`, rec[0])
  await pausePlayer(page)
  await setSound(page, { speed: 1 })
  await page.keyboard.press('Escape')

  console.log(
    `\nspeed: a 1 kHz tone with a 2.5 kHz burst every ${SPEED.period} s of the song, the speed changed while it plays (the panel's control)`,
  )
  let before = Number.NaN
  marks.forEach((mark, i) => {
    const from = recorder.frameAt(mark.at) + (i === 0 ? 0.8 : 1.2) * RATE
    const to = recorder.frameAt(marks[i + 1]?.at ?? end) - 0.1 * RATE
    const pitches: number[] = []
    for (let at = from; at + 0.2 * RATE <= to; at += 0.5 * RATE)
      pitches.push(peakFrequency(rec[0], at, 0.2 * RATE, SPEED.hz - 50, SPEED.hz + 50, RATE))
    const pitch = median(pitches)
    const onsets = burstOnsets(
      rec[0],
      from,
      to,
      SPEED.burstHz,
      RATE,
      0.6 * (SPEED.period / mark.speed) * RATE,
    )
    const measured = speedFromOnsets(onsets, SPEED.period, mark.speed, RATE)
    const silences = dropouts(rec, from, to)
    const levels = cleanLevels(rec[0], from, to)
    const level = median(levels)
    let change = ''
    if (i > 0) {
      const at = recorder.frameAt(mark.at)
      const dip = Math.min(...cleanLevels(rec[0], at - 0.1 * RATE, at + 1.2 * RATE)) - before
      const heard = dropouts(rec, at - 0.1 * RATE, at + 1.2 * RATE)
      change = `; at the change: the tone's lowest 10 ms ${fmt(dip, 2)} dB against before, silences ${heard.length}`
      run.figures.push({
        figure: `speed ${mark.speed}×: at the change, lowest level`,
        value: Number(dip.toFixed(2)),
        unit: 'dB',
        note: `${heard.length} silences`,
      })
    }
    before = level
    console.log(
      `  ${mark.speed}× over ${fmt((to - from) / RATE)} s: pitch ${fmt(pitch, 2)} Hz (${fmt((pitch / SPEED.hz - 1) * 100, 2)} %); tempo from ${onsets.length} bursts ${fmt(measured, 4)}× (${fmt((measured / mark.speed - 1) * 100, 2)} %); silences of 1 ms or more ${silences.length}; tone level (10 ms windows without a drop-out) median ${fmt(level, 1)} dBFS, lowest ${fmt(Math.min(...levels), 1)}${change}`,
    )
    run.figures.push(
      {
        figure: `speed ${mark.speed}×: pitch`,
        value: Number(((pitch / SPEED.hz - 1) * 100).toFixed(3)),
        unit: '% off 1 kHz',
        target: '|x| ≤ 1',
      },
      {
        figure: `speed ${mark.speed}×: tempo`,
        value: Number(((measured / mark.speed - 1) * 100).toFixed(3)),
        unit: '% off the speed',
        target: '|x| ≤ 1',
      },
      { figure: `speed ${mark.speed}×: silences`, value: silences.length, unit: 'count', target: '0' },
    )
  })
}

const PRESETS = ['bass', 'treble', 'vocal']

/**
 * The equaliser as docs/playback.md describes it, from the gains and preamp main keeps for the preset:
 * ten bands at the ISO octave centres, a low shelf, eight peaking filters and a high shelf, Q √2.
 */
function presetChain(equaliser: { gains: number[]; preamp: number }): { preamp: number; filters: Band[] } {
  return {
    preamp: equaliser.preamp,
    filters: EQ_BANDS.map((frequency, i) => ({
      type: i === 0 ? 'lowshelf' : i === EQ_BANDS.length - 1 ? 'highshelf' : 'peaking',
      frequency,
      q: Math.SQRT2,
      gain: equaliser.gains[i] ?? 0,
    })),
  }
}

/**
 * The equaliser: the sweep (0.4 s steps of a −20 dBFS tone a third of an octave apart) played with the
 * equaliser off, then with each of `PRESETS` chosen in the sound panel. Each step's level is its tone's
 * (`toneLevelIn`: the highest over windows of 8 periods without a drop-out, searched from 0.1 s
 * before the step to 1 s after it, that end later by the silences heard before it); the response is
 * the preset's level less the level with it off, compared with the preset's own curve: its preamp and
 * ten biquads (the gains main keeps for it, `presetChain`) by the Web Audio specification's formulas,
 * and by Chromium's `getFrequencyResponse` of the same filters in the app's page.
 */
export async function equaliserSection(run: SectionRun): Promise<void> {
  const { page } = run
  const song = run.songs.get(SWEEP.title)
  if (!song) throw new Error(`${SWEEP.title} is not in the library`)
  const rate = (await page.evaluate(`(async () => {
    const context = new AudioContext()
    const rate = context.sampleRate
    await context.close()
    return rate
  })()`)) as number
  const recorder = run.recorder()
  recorder.start()
  const marks = new Map<string, number>()
  const chains = new Map<string, ReturnType<typeof presetChain>>()
  for (const preset of ['off', ...PRESETS]) {
    await setSound(page, preset === 'off' ? { equaliserOff: true } : { preset })
    chains.set(preset, presetChain((await savedSettings(page)).equaliser))
    await page.keyboard.press('Escape')
    await sleep(600)
    marks.set(preset, Date.now())
    await playSongs(page, [song])
    await waitForClock(page, SWEEP.step * SWEEP.steps - 0.3, 60_000)
    await sleep(500)
    await pausePlayer(page)
  }
  const rec = recorder.stop()
  await keep(`eq-marks-${[...marks.values()].map((at) => recorder.frameAt(at)).join('-')}`, rec[0])
  await setSound(page, { equaliserOff: true })
  await page.keyboard.press('Escape')

  const steps = Array.from({ length: SWEEP.steps }, (_, k) => sweepHz(k))
  const levels = (preset: string) => {
    const start = firstSound(rec, recorder.frameAt(marks.get(preset)!))
    let drift = 0
    return steps.map((hz, k) => {
      const expected = start + k * SWEEP.step * RATE
      // Silences heard so far (drop-outs, under load) push the step later.
      const heard = dropouts(rec, start, Math.round(expected + drift))
      drift = (heard.reduce((sum, length) => sum + length, 0) / 1000) * RATE
      // From 0.1 s before where the step would be with no silence to 1 s after where the silences put it
      // (a drop-out may delay what follows, or Chromium may skip it to keep its clock).
      const from = Math.round(expected - 0.1 * RATE)
      return toneLevelIn(rec[0], from, Math.round(expected + drift + (SWEEP.step + 1) * RATE), hz, RATE)
    })
  }
  const off = levels('off')
  console.log(
    `\nequaliser: a sweep of −20 dBFS tones a third of an octave apart, ${fmt(steps[0], 2)} Hz to ${fmt(steps[steps.length - 1], 0)} Hz, with the equaliser off and with each preset (the context runs at ${rate} Hz); response = level with the preset − level off, against the preset's own curve`,
  )
  for (const preset of PRESETS) {
    const chain = chains.get(preset)!
    const chromium = (await page.evaluate(
      ([filters, frequencies, contextRate]) => {
        const context = new OfflineAudioContext(1, 128, contextRate)
        const total = new Float32Array(frequencies.length)
        for (const spec of filters) {
          const filter = context.createBiquadFilter()
          filter.type = spec.type
          filter.frequency.value = spec.frequency
          filter.Q.value = spec.q
          filter.gain.value = spec.gain
          const magnitude = new Float32Array(frequencies.length)
          filter.getFrequencyResponse(
            Float32Array.from(frequencies),
            magnitude,
            new Float32Array(frequencies.length),
          )
          magnitude.forEach((m, i) => (total[i] += 20 * Math.log10(m)))
        }
        return [...total]
      },
      [chain.filters, steps, rate] as const,
    )) as number[]
    const heard = levels(preset)
    const rows = steps.map((hz, k) => {
      const expected = equaliserDb(chain.preamp, chain.filters, hz, rate)
      return { hz, response: heard[k] - off[k], expected, browser: chain.preamp + chromium[k] }
    })
    // 39 Hz to 16 kHz: every step but the first.
    // Steps whose tone was found in both runs (NaN: every window held a drop-out).
    const inRange = rows.slice(1).filter((row) => Number.isFinite(row.response))
    const worst = Math.max(...inRange.map((row) => Math.abs(row.response - row.expected)))
    const models = Math.max(...rows.map((row) => Math.abs(row.browser - row.expected)))
    console.log(
      `  ${preset} (preamp ${chain.preamp} dB, bands ${chain.filters.map((f) => f.gain).join(' ')}): largest difference from its curve over ${fmt(steps[1], 0)} Hz–16 kHz ${fmt(worst, 2)} dB (${inRange.length} of ${rows.length - 1} steps found in both runs) (at ${fmt(steps[0], 1)} Hz ${fmt(Math.abs(rows[0].response - rows[0].expected), 2)} dB); the specification's formulas against Chromium's getFrequencyResponse ${fmt(models, 3)} dB`,
      `\n    Hz: heard / curve dB  ${rows.map((row) => `${fmt(row.hz, 0)}: ${fmt(row.response)}/${fmt(row.expected)}`).join(', ')}`,
    )
    run.figures.push({
      figure: `equaliser ${preset}: largest difference from the preset's curve, ${fmt(steps[1], 0)} Hz–16 kHz`,
      value: Number(worst.toFixed(2)),
      unit: 'dB',
      note: `${inRange.length} of ${rows.length - 1} steps`,
    })
  }
}
