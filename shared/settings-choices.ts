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
