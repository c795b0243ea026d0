import { describe, expect, it } from 'vitest'
import { createSettingsService, migrateSettings, SETTINGS_KEY } from '@main/core/settings/service'
import { createEventHub } from '@main/core/events'
import { createMemoryStore } from '@main/core/ports'
import { silentLogger } from '@main/core/log'
import { DEFAULT_SETTINGS, SETTINGS_VERSION } from '@shared/settings'

function setup(initial: Record<string, unknown> = {}) {
  const store = createMemoryStore(initial)
  const events = createEventHub()
  const emitted: unknown[] = []
  events.subscribe((event, payload) => emitted.push([event, payload]))
  return { store, emitted, service: createSettingsService({ store, events, log: silentLogger('s') }) }
}

describe('migrateSettings', () => {
  it('gives the defaults for nothing or garbage', () => {
    expect(migrateSettings(undefined)).toEqual(DEFAULT_SETTINGS)
    expect(migrateSettings('x')).toEqual(DEFAULT_SETTINGS)
    expect(migrateSettings([1])).toEqual(DEFAULT_SETTINGS)
  })

  it('keeps valid fields, replaces invalid ones with defaults, drops unknown ones', () => {
    const migrated = migrateSettings({
      version: 1,
      theme: 'dark',
      quality: 'ultra',
      qrPollIntervalMs: 100,
      lyrics: { fontScale: 1.5, showTranslation: 'yes' },
      unknown: true,
    })
    expect(migrated).toEqual({
      ...DEFAULT_SETTINGS,
      theme: 'dark',
      lyrics: { ...DEFAULT_SETTINGS.lyrics, fontScale: 1.5 },
    })
  })

  it('keeps the sound settings that validate: a device, an equaliser of ten bands, a speed, a crossfade', () => {
    const equaliser = { enabled: true, preset: 'custom', gains: [3, 2, 1, 0, 0, 0, 0, 1, 2, 3], preamp: -3 }
    const kept = migrateSettings({
      outputDevice: { id: 'abc', label: 'USB DAC' },
      equaliser,
      speed: 1.25,
      crossfadeSeconds: 6,
    })
    expect(kept).toMatchObject({ outputDevice: { id: 'abc', label: 'USB DAC' }, equaliser, speed: 1.25 })
    expect(kept.crossfadeSeconds).toBe(6)
    const refused = migrateSettings({
      equaliser: { ...equaliser, gains: [3, 2, 1] },
      speed: 4,
      crossfadeSeconds: 30,
    })
    expect(refused.equaliser).toEqual(DEFAULT_SETTINGS.equaliser)
    expect(refused.speed).toBe(1)
    expect(refused.crossfadeSeconds).toBe(0)
  })

  it('migrates version 0 (the polling interval in seconds)', () => {
    expect(migrateSettings({ qrPollInterval: 4, keepSignedIn: false })).toMatchObject({
      version: SETTINGS_VERSION,
      qrPollIntervalMs: 4000,
      keepSignedIn: false,
    })
  })
})

describe('createSettingsService', () => {
  it('starts with the defaults and writes them with the schema version', () => {
    const t = setup()
    expect(t.service.get()).toEqual(DEFAULT_SETTINGS)
    expect(t.store.snapshot()[SETTINGS_KEY]).toEqual(DEFAULT_SETTINGS)
  })

  it('applies a partial update, persists it, tells listeners and the renderer', () => {
    const t = setup({ [SETTINGS_KEY]: { ...DEFAULT_SETTINGS, theme: 'light' } })
    const seen: string[] = []
    t.service.onChange((next, previous) => seen.push(`${previous.keepSignedIn}->${next.keepSignedIn}`))
    const next = t.service.update({ keepSignedIn: false, lyrics: { fontScale: 1.25 } })
    expect(next).toMatchObject({
      theme: 'light',
      keepSignedIn: false,
      lyrics: { fontScale: 1.25, showTranslation: true },
    })
    expect(t.store.snapshot()[SETTINGS_KEY]).toEqual(next)
    expect(seen).toEqual(['true->false'])
    expect(t.emitted).toEqual([['settings:changed', next]])
  })

  it('refuses invalid values without changing anything', () => {
    const t = setup()
    expect(() => t.service.update({ qrPollIntervalMs: 10 } as never)).toThrow()
    expect(() => t.service.update({ version: 2 } as never)).toThrow()
    expect(t.service.get()).toEqual(DEFAULT_SETTINGS)
    expect(t.emitted).toEqual([])
  })

  it('hands out copies, so callers cannot change the settings behind its back', () => {
    const t = setup()
    t.service.get().lyrics.fontScale = 2
    expect(t.service.get().lyrics.fontScale).toBe(1)
  })
})
