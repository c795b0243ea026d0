import { z } from 'zod'
import {
  CROSSFADE_MAX_SECONDS,
  SLEEP_FADE_MAX_SECONDS,
  EQ_BANDS,
  EQ_MAX_DB,
  EQ_PRESET_NAMES,
  LANGUAGES,
  LOUDNESS_CHOICES,
  QUALITIES,
  SETTINGS_VERSION,
  SPEED_MAX,
  SPEED_MIN,
  THEMES,
} from './settings-choices'
import { ACCELERATOR_MAX, SHORTCUT_ACTIONS, isValidAccelerator, sharedWith } from './global-shortcuts'
import type { ShortcutMap } from './global-shortcuts'

/** The settings' zod schemas: main only (it validates what it loads and every patch). */

/** An Electron accelerator main may register ('' = none): checked before it reaches `globalShortcut`. */
const acceleratorSchema = z
  .string()
  .max(ACCELERATOR_MAX)
  .refine((value) => value === '' || isValidAccelerator(value), 'Not a key combination Electron can register')
/** Every global shortcut's keys; two actions never share the same keys. */
export const shortcutsSchema = z
  .object({
    'play-pause': acceleratorSchema,
    next: acceleratorSchema,
    previous: acceleratorSchema,
    like: acceleratorSchema,
    'volume-up': acceleratorSchema,
    'volume-down': acceleratorSchema,
    'desktop-lyrics': acceleratorSchema,
  })
  .strict()
  .superRefine((map, context) => {
    for (const action of SHORTCUT_ACTIONS) {
      const other = sharedWith(map as ShortcutMap, action, map[action])
      if (other && SHORTCUT_ACTIONS.indexOf(other) < SHORTCUT_ACTIONS.indexOf(action)) {
        context.addIssue({ code: 'custom', path: [action], message: `The same keys as ${other}` })
      }
    }
  })

export const settingsSchema = z.object({
  version: z.literal(SETTINGS_VERSION),
  /** Keep the credential across restarts (encrypted). Off: memory only. */
  keepSignedIn: z.boolean(),
  /** Linux without a keyring: the user agreed to store the credential with weak (basic_text) protection. */
  allowInsecureStorage: z.boolean(),
  quality: z.enum(QUALITIES),
  /** Loudness normalisation target (renderer's Web Audio output). */
  loudness: z.enum(LOUDNESS_CHOICES),
  /**
   * The output device (`AudioContext.setSinkId`): its `deviceId` ('' = the system default) and its label,
   * kept to name it when it is missing (unplugged: playback falls back to the default and says so).
   */
  outputDevice: z.object({ id: z.string().max(512), label: z.string().max(200) }),
  /** The 10-band equaliser: on or off, the preset chosen, a gain per band of `EQ_BANDS` and a preamp (dB). */
  equaliser: z.object({
    enabled: z.boolean(),
    preset: z.enum(EQ_PRESET_NAMES),
    gains: z.array(z.number().min(-EQ_MAX_DB).max(EQ_MAX_DB)).length(EQ_BANDS.length),
    preamp: z.number().min(-EQ_MAX_DB).max(EQ_MAX_DB),
  }),
  /** Playback speed, pitch kept. */
  speed: z.number().min(SPEED_MIN).max(SPEED_MAX),
  /** Crossfade between songs in seconds (0: off, gapless); never between consecutive tracks of one album. */
  crossfadeSeconds: z.number().int().min(0).max(CROSSFADE_MAX_SECONDS),
  /** Autoplay: when few songs are left in the queue, more that fit are added (not under repeat-all). */
  autoplay: z.boolean(),
  /** The sleep timer fades the music out over its last this many seconds (0: no fade). */
  sleepFadeSeconds: z.number().int().min(0).max(SLEEP_FADE_MAX_SECONDS),
  theme: z.enum(THEMES),
  language: z.enum(LANGUAGES),
  lyrics: z.object({
    showTranslation: z.boolean(),
    showTransliteration: z.boolean(),
    fontScale: z.number().min(0.75).max(2),
    /** The desktop lyrics window: shown, locked (click-through, not draggable), its text size and colour. */
    desktop: z.boolean(),
    desktopLocked: z.boolean(),
    desktopFontSize: z.number().int().min(16).max(72),
    desktopColor: z.string().regex(/^#[0-9a-f]{6}$/i),
  }),
  /** An OS notification with the cover when the song changes (off by default). */
  notifyTrackChange: z.boolean(),
  /**
   * "Let my phone sign in": the built-in data source listens on the network (0.0.0.0) instead of loopback
   * only, and its owner passphrase is kept (encrypted) and shown, so a phone can confirm a sign-in.
   */
  phoneSignIn: z.boolean(),
  /** An installed app checks its update feed (at start and every 6 hours) and downloads in the background. */
  autoUpdate: z.boolean(),
  /** Cap of the cache of played songs, in MiB (downloads are not counted): least recently played go first. */
  mediaCacheMaxMiB: z.number().int().min(64).max(1_048_576),
  /** QR login polling interval, 3–5 s as the spec recommends. */
  qrPollIntervalMs: z.number().int().min(3000).max(5000),
  /** Global shortcuts (Settings → Keyboard shortcuts), registered by main. */
  shortcuts: shortcutsSchema,
  /** Discord Rich Presence ("Listening to" the song playing); off until the person turns it on. */
  discordPresence: z.boolean(),
  /**
   * Lyrics from LRCLIB for songs whose source has none (or only plain text): off until the person turns it
   * on; `unasked` until the lyrics view has offered it once.
   */
  lrclib: z.enum(['unasked', 'on', 'off']),
})
/** A partial update from the renderer; `version` is main's business. */
export const settingsPatchSchema = settingsSchema
  .omit({ version: true })
  .extend({ lyrics: settingsSchema.shape.lyrics.partial() })
  .partial()
  .strict()
