/**
 * The settings' version and choices: constants both \`./settings\` (types and defaults, no zod) and
 * \`./settings-schema\` (main's zod schemas) use. Here, apart, so neither of those imports the other's values.
 */

export const SETTINGS_VERSION = 1

export const QUALITIES = ['standard', 'higher', 'exhigh', 'lossless'] as const
export type Quality = (typeof QUALITIES)[number]
export const THEMES = ['system', 'light', 'dark'] as const
export type Theme = (typeof THEMES)[number]
/** Loudness normalisation: toward −14 LUFS (the default), −18 LUFS (quieter, more headroom), or off. */
export const LOUDNESS_CHOICES = ['-14', '-18', 'off'] as const
export type LoudnessChoice = (typeof LOUDNESS_CHOICES)[number]
export const LANGUAGES = ['en', 'zh-CN'] as const
export type Language = (typeof LANGUAGES)[number]
/** The equaliser's ten bands (ISO octave centres, Hz) and its presets' names ('custom': the user's own gains). */
export const EQ_BANDS = [31, 62, 125, 250, 500, 1000, 2000, 4000, 8000, 16000] as const
export const EQ_PRESET_NAMES = [
  'flat',
  'bass',
  'treble',
  'vocal',
  'rock',
  'classical',
  'electronic',
  'custom',
] as const
export type EqPresetName = (typeof EQ_PRESET_NAMES)[number]
/** Each band's gain and the preamp stay within ±this many dB. */
export const EQ_MAX_DB = 12
/** Playback speed: 0.5× to 2×, pitch kept. */
export const SPEED_MIN = 0.5
export const SPEED_MAX = 2
/** A speed held to 0.5–2× (anything not a number: 1×). */
export const clampSpeed = (value: number): number =>
  Number.isFinite(value) ? Math.min(SPEED_MAX, Math.max(SPEED_MIN, value)) : 1
/** Crossfade between songs: 0 (off, the default: gapless) up to this many seconds. */
export const CROSSFADE_MAX_SECONDS = 12
/** The sleep timer's fade out: 0 (none) up to this many seconds; 20 by default. */
export const SLEEP_FADE_MAX_SECONDS = 60
