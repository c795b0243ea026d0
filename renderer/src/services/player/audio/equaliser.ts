/**
 * The 10-band equaliser: ISO octave centres from 31 Hz to 16 kHz, peaking filters (low and high shelves
 * at the ends), gains within ±12 dB, presets, and a preamp. Pure: the graph (`equaliser-stage.ts`)
 * builds its preamp and `BiquadFilterNode`s from `equaliserChain`.
 */

import { EQ_BANDS, EQ_MAX_DB } from '@shared/settings'
import type { EqPresetName, Settings } from '@shared/settings'

export { EQ_BANDS, EQ_MAX_DB }
const OCTAVE_Q = Math.SQRT2

export const EQ_PRESETS = {
  flat: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  bass: [6, 5, 4, 2, 0, 0, 0, 0, 0, 0],
  treble: [0, 0, 0, 0, 0, 0, 2, 4, 5, 6],
  vocal: [-2, -2, -1, 1, 3, 4, 3, 1, 0, -1],
  rock: [4, 3, 2, 0, -1, -1, 1, 2, 3, 4],
  classical: [3, 2, 1, 0, 0, 0, -1, -1, 1, 2],
  electronic: [5, 4, 1, 0, -2, 1, 0, 1, 4, 5],
} as const satisfies Record<Exclude<EqPresetName, 'custom'>, readonly number[]>
export type EqPreset = keyof typeof EQ_PRESETS

export interface EqualiserSettings {
  enabled: boolean
  /** Ten gains in dB, one per band of `EQ_BANDS`. */
  gains: number[]
  /** dB added before the bands (negative, to make room for boosts). */
  preamp: number
}

export interface FilterSpec {
  type: 'lowshelf' | 'peaking' | 'highshelf'
  frequency: number
  q: number
  gain: number
}

const clampDb = (db: number) => (Number.isFinite(db) ? Math.max(-EQ_MAX_DB, Math.min(EQ_MAX_DB, db)) : 0)

const bandGains = (gains: readonly number[]) => EQ_BANDS.map((_, i) => clampDb(gains[i] ?? 0))

function bandFilters(gains: readonly number[]): FilterSpec[] {
  return EQ_BANDS.map((frequency, i) => ({
    type: i === 0 ? 'lowshelf' : i === EQ_BANDS.length - 1 ? 'highshelf' : 'peaking',
    frequency,
    q: OCTAVE_Q,
    gain: gains[i],
  }))
}

/** The preamp in dB when on (clamped), else 0. */
export function equaliserPreamp(settings: EqualiserSettings): number {
  return settings.enabled ? clampDb(settings.preamp) : 0
}

/** The preamp that keeps the largest boost from clipping: minus the highest band gain (never positive). */
export function suggestedPreamp(gains: readonly number[]): number {
  // `|| 0`: never −0 (it would be kept in the settings and shown as "−0 dB").
  return -Math.max(0, ...gains.map(clampDb)) || 0
}

export function presetSettings(preset: EqPreset): Pick<EqualiserSettings, 'gains' | 'preamp'> {
  const gains = [...EQ_PRESETS[preset]]
  return { gains, preamp: suggestedPreamp(gains) }
}

export interface EqualiserChain {
  /** The preamp in dB. */
  preamp: number
  /** Always the ten bands (a flat band is 0 dB, which a biquad passes unchanged). */
  filters: FilterSpec[]
}

/**
 * What the graph puts between the volume and the limiter: nothing when off, or on with flat bands and
 * no preamp; otherwise the preamp and all ten bands, so a later change of any band or of the preamp is
 * a glide of gains, never a change of the chain (which only turning it on or off makes).
 */
export function equaliserChain(settings: EqualiserSettings | undefined): EqualiserChain | undefined {
  if (!settings?.enabled) return undefined
  const preamp = equaliserPreamp(settings)
  const gains = bandGains(settings.gains)
  if (preamp === 0 && gains.every((gain) => gain === 0)) return undefined
  return { preamp, filters: bandFilters(gains) }
}

/** What a new chain asks of the graph, given whether the chain is in the signal path now. */
export type EqualiserStep = 'none' | 'insert' | 'retune' | 'remove'
export function equaliserStep(inserted: boolean, next: EqualiserChain | undefined): EqualiserStep {
  if (!next) return inserted ? 'remove' : 'none'
  return inserted ? 'retune' : 'insert'
}

/** The equaliser as settings keep it (`settings.equaliser`). */
export type EqualiserSetting = Settings['equaliser']

/**
 * A preset chosen: its gains and the preamp that keeps them from clipping. Choosing a preset turns the
 * equaliser on (a preset not heard would look chosen and change nothing); "custom" keeps the gains.
 */
export function choosePreset(current: EqualiserSetting, preset: EqPresetName): EqualiserSetting {
  if (preset === 'custom') return { ...current, enabled: true, preset }
  return { enabled: true, preset, ...presetSettings(preset) }
}

/** One band moved (dB, clamped): the gains are the user's own from then on ("custom"). */
export function withBand(current: EqualiserSetting, band: number, db: number): EqualiserSetting {
  if (!Number.isInteger(band) || band < 0 || band >= EQ_BANDS.length || !Number.isFinite(db)) return current
  const gains = bandGains(current.gains)
  gains[band] = clampDb(db)
  return { ...current, preset: 'custom', gains }
}

/** The preamp moved (dB, clamped). */
export function withPreamp(current: EqualiserSetting, db: number): EqualiserSetting {
  if (!Number.isFinite(db)) return current
  return { ...current, preamp: clampDb(db) }
}

/** Back to flat: every band and the preamp at 0 dB (on or off as it was). */
export function resetEqualiser(current: EqualiserSetting): EqualiserSetting {
  return { enabled: current.enabled, preset: 'flat', ...presetSettings('flat') }
}
