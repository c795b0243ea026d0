import type { z } from 'zod'
import type { settingsPatchSchema, settingsSchema } from './settings-schema'

/**
 * User settings: one typed interface with defaults, persisted by main (schema version for migrations).
 * No run-time zod here (types only), so the renderer can use the defaults and choices without loading
 * zod; main's schemas are in `./settings-schema`.
 */

export const SETTINGS_VERSION = 1

export const QUALITIES = ['standard', 'higher', 'exhigh', 'lossless'] as const
export type Quality = (typeof QUALITIES)[number]
export const THEMES = ['system', 'light', 'dark'] as const
export type Theme = (typeof THEMES)[number]
export const LANGUAGES = ['en', 'zh-CN'] as const
export type Language = (typeof LANGUAGES)[number]

export type Settings = z.infer<typeof settingsSchema>

export const DEFAULT_SETTINGS: Settings = {
  version: SETTINGS_VERSION,
  keepSignedIn: true,
  allowInsecureStorage: false,
  quality: 'exhigh',
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
  mediaCacheMaxMiB: 2048,
  qrPollIntervalMs: 3000,
}

export type SettingsPatch = z.infer<typeof settingsPatchSchema>
