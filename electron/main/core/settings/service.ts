import { DEFAULT_SETTINGS, SETTINGS_VERSION } from '@shared/settings'
import { settingsPatchSchema, settingsSchema } from '@shared/settings-schema'
import type { Settings, SettingsPatch } from '@shared/settings'
import type { EventHub } from '../events'
import type { Logger } from '../log'
import type { KeyValueStore } from '../ports'

export const SETTINGS_KEY = 'settings'

/**
 * Brings whatever the store holds (any older version, a hand-edited file, garbage) to the current
 * settings shape: known fields that still validate are kept, everything else falls back to its default.
 */
export function migrateSettings(raw: unknown): Settings {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return structuredClone(DEFAULT_SETTINGS)
  const input = { ...(raw as Record<string, unknown>) }
  const version = typeof input.version === 'number' ? input.version : 0
  // Version 0 (before versions existed) called the polling interval `qrPollInterval`, in seconds.
  if (version < 1 && typeof input.qrPollInterval === 'number' && input.qrPollIntervalMs === undefined) {
    input.qrPollIntervalMs = Math.round(input.qrPollInterval * 1000)
  }
  const out: Record<string, unknown> = structuredClone(DEFAULT_SETTINGS)
  const shape = settingsSchema.shape
  for (const key of Object.keys(shape) as Array<keyof Settings>) {
    if (key === 'version' || !(key in input)) continue
    if (key === 'lyrics') {
      const lyrics = input.lyrics
      if (typeof lyrics === 'object' && lyrics !== null) {
        const merged = { ...DEFAULT_SETTINGS.lyrics }
        for (const [k, schema] of Object.entries(shape.lyrics.shape)) {
          const parsed = schema.safeParse((lyrics as Record<string, unknown>)[k])
          if (parsed.success) (merged as Record<string, unknown>)[k] = parsed.data
        }
        out.lyrics = merged
      }
      continue
    }
    if (key === 'shortcuts') {
      out.shortcuts = migrateShortcuts(input.shortcuts)
      continue
    }
    const parsed = shape[key].safeParse(input[key])
    if (parsed.success) out[key] = parsed.data
  }
  out.version = SETTINGS_VERSION
  return settingsSchema.parse(out)
}

/** Each shortcut that still validates is kept (a new action gets its default); keys shared by two: defaults. */
function migrateShortcuts(raw: unknown): Settings['shortcuts'] {
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS.shortcuts }
  if (typeof raw === 'object' && raw !== null) {
    for (const [action, schema] of Object.entries(settingsSchema.shape.shortcuts.shape)) {
      const parsed = schema.safeParse((raw as Record<string, unknown>)[action])
      if (parsed.success) merged[action] = parsed.data
    }
  }
  const checked = settingsSchema.shape.shortcuts.safeParse(merged)
  return checked.success ? checked.data : { ...DEFAULT_SETTINGS.shortcuts }
}

export interface SettingsService {
  get(): Settings
  /** Applies a partial update (already parsed by the router, parsed again here), persists it, emits it. */
  update(patch: SettingsPatch): Settings
  /** Called after every change, before `settings:changed` reaches the renderer. */
  onChange(listener: (next: Settings, previous: Settings) => void): () => void
}

export function createSettingsService(deps: { store: KeyValueStore; events: EventHub; log: Logger }) {
  const stored = deps.store.get(SETTINGS_KEY)
  let current = migrateSettings(stored)
  if (JSON.stringify(stored) !== JSON.stringify(current)) deps.store.set(SETTINGS_KEY, current)
  const listeners = new Set<(next: Settings, previous: Settings) => void>()

  const service: SettingsService = {
    get: () => structuredClone(current),
    update(patch) {
      const valid = settingsPatchSchema.parse(patch)
      const previous = current
      const next = settingsSchema.parse({
        ...current,
        ...valid,
        lyrics: { ...current.lyrics, ...valid.lyrics },
        version: SETTINGS_VERSION,
      })
      current = next
      deps.store.set(SETTINGS_KEY, next)
      deps.log.info('settings updated', { keys: Object.keys(valid) })
      for (const listener of listeners) listener(structuredClone(next), previous)
      deps.events.emit('settings:changed', structuredClone(next))
      return structuredClone(next)
    },
    onChange(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
  return service
}
