import { describe, expect, it } from 'vitest'
import {
  DEFAULT_SHORTCUTS,
  acceleratorFromKeys,
  describeAccelerator,
  isValidAccelerator,
  sharedWith,
} from '@shared/global-shortcuts'
import type { KeyPress, ShortcutAction } from '@shared/global-shortcuts'
import { createShortcuts } from '@main/core/shortcuts'
import type { ShortcutPort } from '@main/core/shortcuts'
import { createSettingsService, migrateSettings } from '@main/core/settings/service'
import { createEventHub } from '@main/core/events'
import { createMemoryStore } from '@main/core/ports'
import { silentLogger } from '@main/core/log'
import { DEFAULT_SETTINGS } from '@shared/settings'

const press = (code: string, mods: Partial<KeyPress> = {}, key = ''): KeyPress => ({
  key: key || code,
  code,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
})

describe('a key press as an Electron accelerator', () => {
  it('names the physical key with its modifiers, Ctrl (⌘ on macOS) as CommandOrControl', () => {
    expect(acceleratorFromKeys(press('KeyP', { ctrlKey: true, altKey: true }, 'p'), false)).toEqual({
      type: 'accelerator',
      accelerator: 'CommandOrControl+Alt+P',
    })
    expect(acceleratorFromKeys(press('KeyP', { metaKey: true, altKey: true }, 'π'), true)).toEqual({
      type: 'accelerator',
      accelerator: 'CommandOrControl+Alt+P',
    })
    expect(acceleratorFromKeys(press('ArrowRight', { ctrlKey: true, shiftKey: true }), false)).toEqual({
      type: 'accelerator',
      accelerator: 'CommandOrControl+Shift+Right',
    })
    expect(acceleratorFromKeys(press('Digit1', { ctrlKey: true, shiftKey: true }, '!'), false)).toMatchObject(
      {
        accelerator: 'CommandOrControl+Shift+1',
      },
    )
    expect(acceleratorFromKeys(press('Numpad5', { altKey: true }), false)).toMatchObject({
      accelerator: 'Alt+num5',
    })
    expect(acceleratorFromKeys(press('Slash', { ctrlKey: true }, '/'), false)).toMatchObject({
      accelerator: 'CommandOrControl+/',
    })
    expect(acceleratorFromKeys(press('KeyK', { metaKey: true }), false)).toMatchObject({
      accelerator: 'Super+K',
    })
    expect(acceleratorFromKeys(press('KeyK', { ctrlKey: true }), true)).toMatchObject({
      accelerator: 'Control+K',
    })
  })

  it('takes function and media keys alone, but not a letter alone; Esc alone cancels; modifiers alone wait', () => {
    expect(acceleratorFromKeys(press('F7'), false)).toEqual({ type: 'accelerator', accelerator: 'F7' })
    expect(acceleratorFromKeys(press('', {}, 'MediaPlayPause'), false)).toEqual({
      type: 'accelerator',
      accelerator: 'MediaPlayPause',
    })
    expect(acceleratorFromKeys(press('KeyA', {}, 'a'), false)).toEqual({ type: 'needs-modifier' })
    expect(acceleratorFromKeys(press('KeyA', { shiftKey: true }, 'A'), false)).toEqual({
      type: 'needs-modifier',
    })
    expect(acceleratorFromKeys(press('Escape'), false)).toEqual({ type: 'cancel' })
    expect(acceleratorFromKeys(press('Escape', { ctrlKey: true }), false)).toMatchObject({
      accelerator: 'CommandOrControl+Escape',
    })
    expect(acceleratorFromKeys(press('ControlLeft', { ctrlKey: true }, 'Control'), false)).toEqual({
      type: 'incomplete',
    })
    expect(acceleratorFromKeys(press('IntlRo', { ctrlKey: true }, 'ろ'), false)).toEqual({
      type: 'unsupported',
    })
  })

  it('produces only accelerators Electron parses', () => {
    const codes = [
      'KeyZ',
      'Digit0',
      'F24',
      'Space',
      'Enter',
      'Backquote',
      'BracketLeft',
      'Quote',
      'NumpadAdd',
    ]
    for (const code of codes) {
      const result = acceleratorFromKeys(press(code, { ctrlKey: true, altKey: true }), false)
      expect(result.type, code).toBe('accelerator')
      if (result.type === 'accelerator') expect(isValidAccelerator(result.accelerator), code).toBe(true)
    }
  })
})

describe('accelerator validation and display', () => {
  it('accepts modifiers and one key code; refuses two keys, unknown names, doubled modifiers, empty', () => {
    for (const good of [
      'CommandOrControl+Alt+L',
      'CmdOrCtrl+Shift+Plus',
      'Super+F12',
      'MediaNextTrack',
      'Alt+num0',
    ])
      expect(isValidAccelerator(good), good).toBe(true)
    for (const bad of [
      '',
      'Ctrl+',
      'A+B',
      'Ctrl+Ctrl+A',
      'Hyper+A',
      'Ctrl+Alt',
      'Ctrl+F25',
      'Ctrl+é',
      'x'.repeat(120),
    ])
      expect(isValidAccelerator(bad), bad).toBe(false)
  })

  it('shows Ctrl+Alt+L, or ⌘⌥L on macOS', () => {
    expect(describeAccelerator('CommandOrControl+Alt+L', false)).toBe('Ctrl+Alt+L')
    expect(describeAccelerator('CommandOrControl+Alt+L', true)).toBe('⌘⌥L')
    expect(describeAccelerator('Alt+Shift+Right', false)).toBe('Alt+Shift+→')
  })

  it('finds the action that already uses the same keys, whatever the spelling', () => {
    const map = { ...DEFAULT_SHORTCUTS, next: 'CmdOrCtrl+Alt+Right' }
    expect(sharedWith(map, 'previous', 'CommandOrControl+Alt+Right')).toBe('next')
    expect(sharedWith(map, 'next', 'CommandOrControl+Alt+Right')).toBeNull()
    expect(sharedWith(map, 'like', '')).toBeNull()
  })
})

function setup(held: string[] = [], throwing: string[] = []) {
  const store = createMemoryStore()
  const events = createEventHub()
  const emitted: unknown[] = []
  events.subscribe((event, payload) => event === 'shortcuts:changed' && emitted.push(payload))
  const settings = createSettingsService({ store, events, log: silentLogger('s') })
  const registered = new Map<string, () => void>()
  const taken = new Set(held)
  const port: ShortcutPort = {
    register(accelerator, onPress) {
      if (throwing.includes(accelerator)) throw new TypeError(`conversion failure from ${accelerator}`)
      if (taken.has(accelerator) || registered.has(accelerator)) return false
      registered.set(accelerator, onPress)
      return true
    },
    unregister: (accelerator) => void registered.delete(accelerator),
  }
  const pressed: ShortcutAction[] = []
  const shortcuts = createShortcuts({
    port,
    settings,
    events,
    log: silentLogger('k'),
    onPress: (action) => pressed.push(action),
  })
  return { settings, shortcuts, registered, taken, emitted, pressed, store }
}

describe('the global shortcuts in main', () => {
  it('registers what Settings holds; a press reaches its action', () => {
    const t = setup()
    expect(t.shortcuts.start()).toMatchObject({ 'desktop-lyrics': 'registered', 'play-pause': 'unset' })
    expect([...t.registered.keys()]).toEqual(['CommandOrControl+Alt+L'])
    t.settings.update({ shortcuts: { ...DEFAULT_SHORTCUTS, 'play-pause': 'CommandOrControl+Alt+P' } })
    expect([...t.registered.keys()].sort()).toEqual(['CommandOrControl+Alt+L', 'CommandOrControl+Alt+P'])
    t.registered.get('CommandOrControl+Alt+P')!()
    expect(t.pressed).toEqual(['play-pause'])
  })

  it('says which one another application holds ("taken") instead of dropping it, and tries again on request', () => {
    const t = setup(['CommandOrControl+Alt+N'])
    t.shortcuts.start()
    t.settings.update({ shortcuts: { ...DEFAULT_SHORTCUTS, next: 'CommandOrControl+Alt+N' } })
    expect(t.shortcuts.state()).toMatchObject({ next: 'taken', 'desktop-lyrics': 'registered' })
    expect(t.emitted.at(-1)).toMatchObject({ next: 'taken' })
    expect(t.registered.has('CommandOrControl+Alt+N')).toBe(false)
    // The other application let go of it.
    t.taken.clear()
    expect(t.shortcuts.handlers['shortcuts:retry'](undefined, {} as never)).toMatchObject({
      next: 'registered',
    })
    expect(t.registered.has('CommandOrControl+Alt+N')).toBe(true)
  })

  it('a registration that throws counts as not registered; clearing and moving keys release them', () => {
    const t = setup([], ['CommandOrControl+Alt+V'])
    t.shortcuts.start()
    t.settings.update({ shortcuts: { ...DEFAULT_SHORTCUTS, 'volume-up': 'CommandOrControl+Alt+V' } })
    expect(t.shortcuts.state()['volume-up']).toBe('taken')
    // The lyrics' keys move to "like" in one change: released first, then taken by the other.
    t.settings.update({
      shortcuts: { ...DEFAULT_SHORTCUTS, 'desktop-lyrics': '', like: 'CommandOrControl+Alt+L' },
    })
    expect(t.shortcuts.state()).toMatchObject({ like: 'registered', 'desktop-lyrics': 'unset' })
    t.registered.get('CommandOrControl+Alt+L')!()
    expect(t.pressed).toEqual(['like'])
    t.shortcuts.dispose()
    expect(t.registered.size).toBe(0)
  })

  it('Settings refuses an accelerator Electron cannot parse, and two actions with the same keys', () => {
    const t = setup()
    expect(() => t.settings.update({ shortcuts: { ...DEFAULT_SHORTCUTS, next: 'Ctrl+Alt' } })).toThrow()
    expect(() => t.settings.update({ shortcuts: { ...DEFAULT_SHORTCUTS, next: 'CmdOrCtrl+Alt+L' } })).toThrow(
      /same keys/,
    )
    expect(t.settings.get().shortcuts).toEqual(DEFAULT_SHORTCUTS)
  })

  it('a settings file keeps each shortcut that still validates; a new action gets its default', () => {
    const migrated = migrateSettings({
      version: 1,
      shortcuts: { next: 'CommandOrControl+Alt+Right', previous: 'Nope+X', gone: 'Alt+G' },
    })
    expect(migrated.shortcuts).toEqual({ ...DEFAULT_SHORTCUTS, next: 'CommandOrControl+Alt+Right' })
    expect(migrateSettings({ version: 1 }).shortcuts).toEqual(DEFAULT_SETTINGS.shortcuts)
  })
})
