/**
 * The 10-band equaliser: ISO octave centres from 31 Hz to 16 kHz, peaking filters (low and high shelves
 * at the ends), gains within ±12 dB, presets, and a preamp. Pure: the graph builds `BiquadFilterNode`s
 * from `equaliserFilters`.
 */

import { EQ_BANDS, EQ_MAX_DB } from '@shared/settings'
import type { EqPresetName } from '@shared/settings'

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

/** The filters for the settings; none when off or flat (nothing in the signal path costs nothing). */
export function equaliserFilters(settings: EqualiserSettings): FilterSpec[] {
  if (!settings.enabled) return []
  const gains = EQ_BANDS.map((_, i) => clampDb(settings.gains[i] ?? 0))
  if (gains.every((gain) => gain === 0)) return []
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
  return -Math.max(0, ...gains.map(clampDb))
}

export function presetSettings(preset: EqPreset): Pick<EqualiserSettings, 'gains' | 'preamp'> {
  const gains = [...EQ_PRESETS[preset]]
  return { gains, preamp: suggestedPreamp(gains) }
}
