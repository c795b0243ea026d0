import type { z } from 'zod'
import { SETTINGS_VERSION } from './settings-choices'
import type { settingsPatchSchema, settingsSchema } from './settings-schema'

/**
 * User settings: one typed interface with defaults, persisted by main (schema version for migrations).
 * No run-time zod here (types only), so the renderer can use the defaults and choices without loading
 * zod; main's schemas are in `./settings-schema`.
 */

export { LANGUAGES, LOUDNESS_CHOICES, QUALITIES, SETTINGS_VERSION, THEMES } from './settings-choices'
export type { Language, LoudnessChoice, Quality, Theme } from './settings-choices'

export type Settings = z.infer<typeof settingsSchema>

export const DEFAULT_SETTINGS: Settings = {
  version: SETTINGS_VERSION,
  keepSignedIn: true,
  allowInsecureStorage: false,
  quality: 'exhigh',
  loudness: '-14',
  theme: 'system',
  language: 'en',
  lyrics: {
    showTranslation: true,
    showTransliteration: false,
    fontScale: 1,
    desktop: false,
    desktopLocked: false,
    desktopFontSize: 32,
    desktopColor: '#ffd166',
  },
  notifyTrackChange: false,
  phoneSignIn: false,
  autoUpdate: true,
  mediaCacheMaxMiB: 2048,
  qrPollIntervalMs: 3000,
}

export type SettingsPatch = z.infer<typeof settingsPatchSchema>
