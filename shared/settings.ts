import type { z } from 'zod'
import { SETTINGS_VERSION } from './settings-choices'
import { DEFAULT_SHORTCUTS } from './global-shortcut-choices'
import type { settingsPatchSchema, settingsSchema } from './settings-schema'

/**
 * User settings: one typed interface with defaults, persisted by main (schema version for migrations).
 * No run-time zod here (types only), so the renderer can use the defaults and choices without loading
 * zod; main's schemas are in `./settings-schema`.
 */

// Every choice and limit, for callers that import the settings from one place.
export * from './settings-choices'

export type Settings = z.infer<typeof settingsSchema>

export const DEFAULT_SETTINGS: Settings = {
  version: SETTINGS_VERSION,
  keepSignedIn: true,
  allowInsecureStorage: false,
  quality: 'exhigh',
  loudness: '-14',
  outputDevice: { id: '', label: '' },
  equaliser: { enabled: false, preset: 'flat', gains: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], preamp: 0 },
  speed: 1,
  crossfadeSeconds: 0,
  sleepFadeSeconds: 20,
  autoplay: true,
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
  shortcuts: { ...DEFAULT_SHORTCUTS },
  discordPresence: false,
  lrclib: 'unasked',
}

export type SettingsPatch = z.infer<typeof settingsPatchSchema>
