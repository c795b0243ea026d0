/**
 * The global shortcuts a person can bind (Settings → Keyboard shortcuts), as Electron accelerator strings
 * ('' = none), and the mapping from a pressed key combination (a KeyboardEvent's fields) to an
 * accelerator. Pure: used by the renderer (recording) and by main (validation before registering).
 * The grammar is Electron's Accelerator documentation: modifiers and exactly one key code, joined by `+`.
 */

export * from './global-shortcut-choices'
import type { ShortcutAction, ShortcutMap } from './global-shortcut-choices'
import { ACCELERATOR_MAX, SHORTCUT_ACTIONS } from './global-shortcut-choices'

const MODIFIER_NAMES = new Set([
  'command',
  'cmd',
  'control',
  'ctrl',
  'commandorcontrol',
  'cmdorctrl',
  'alt',
  'option',
  'altgr',
  'shift',
  'super',
  'meta',
])
const NAMED_KEYS = new Set(
  [
    'Plus',
    'Space',
    'Tab',
    'Capslock',
    'Numlock',
    'Scrolllock',
    'Backspace',
    'Delete',
    'Insert',
    'Return',
    'Enter',
    'Up',
    'Down',
    'Left',
    'Right',
    'Home',
    'End',
    'PageUp',
    'PageDown',
    'Escape',
    'Esc',
    'VolumeUp',
    'VolumeDown',
    'VolumeMute',
    'MediaNextTrack',
    'MediaPreviousTrack',
    'MediaStop',
    'MediaPlayPause',
    'PrintScreen',
    'numdec',
    'numadd',
    'numsub',
    'nummult',
    'numdiv',
  ].map((key) => key.toLowerCase()),
)
const PUNCTUATION = ')!@#$%^&*(:;=<,_->.?/~`{]}[|\\\'"'

function isKeyCode(part: string): boolean {
  return (
    /^[0-9A-Za-z]$/.test(part) ||
    /^F([1-9]|1[0-9]|2[0-4])$/i.test(part) ||
    /^num[0-9]$/i.test(part) ||
    (part.length === 1 && PUNCTUATION.includes(part)) ||
    NAMED_KEYS.has(part.toLowerCase())
  )
}

/** Whether Electron can parse it: known modifiers (none twice) and exactly one key code. */
export function isValidAccelerator(accelerator: string): boolean {
  if (typeof accelerator !== 'string' || !accelerator || accelerator.length > ACCELERATOR_MAX) return false
  const parts = accelerator.split('+')
  const key = parts.pop() ?? ''
  const seen = new Set<string>()
  for (const part of parts) {
    const name = part.toLowerCase()
    if (!MODIFIER_NAMES.has(name) || seen.has(name)) return false
    seen.add(name)
  }
  return isKeyCode(key)
}

/**
 * One spelling per key combination (modifiers in a fixed order, key names in one case), so two spellings
 * of the same keys are seen as one (CmdOrCtrl = CommandOrControl).
 */
export function normaliseAccelerator(accelerator: string): string {
  const parts = accelerator.split('+')
  const key = (parts.pop() ?? '').toLowerCase()
  const alias: Record<string, string> = {
    cmd: 'command',
    ctrl: 'control',
    cmdorctrl: 'commandorcontrol',
    option: 'alt',
    meta: 'super',
  }
  const mods = [...new Set(parts.map((part) => alias[part.toLowerCase()] ?? part.toLowerCase()))].sort()
  const keyAlias: Record<string, string> = { enter: 'return', esc: 'escape' }
  return [...mods, keyAlias[key] ?? key].join('+')
}

/** The action another binding already uses these keys for, if any. */
export function sharedWith(
  map: ShortcutMap,
  action: ShortcutAction,
  accelerator: string,
): ShortcutAction | null {
  if (!accelerator) return null
  const wanted = normaliseAccelerator(accelerator)
  for (const other of SHORTCUT_ACTIONS) {
    if (other !== action && map[other] && normaliseAccelerator(map[other]) === wanted) return other
  }
  return null
}

/** What a key press means while recording. */
export type RecordedKeys =
  | { type: 'accelerator'; accelerator: string }
  /** Escape alone: recording stops, nothing changes. */
  | { type: 'cancel' }
  /** Only modifiers so far: keep listening. */
  | { type: 'incomplete' }
  /** A letter, digit or the like alone would take that key from every application: a modifier is needed. */
  | { type: 'needs-modifier' }
  /** A key Electron has no name for. */
  | { type: 'unsupported' }

export interface KeyPress {
  key: string
  code: string
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
  shiftKey: boolean
}

const CODE_KEYS: Record<string, string> = {
  Space: 'Space',
  Tab: 'Tab',
  Enter: 'Return',
  NumpadEnter: 'Return',
  Backspace: 'Backspace',
  Delete: 'Delete',
  Insert: 'Insert',
  Home: 'Home',
  End: 'End',
  PageUp: 'PageUp',
  PageDown: 'PageDown',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  Escape: 'Escape',
  PrintScreen: 'PrintScreen',
  Minus: '-',
  Equal: '=',
  BracketLeft: '[',
  BracketRight: ']',
  Backslash: '\\',
  Semicolon: ';',
  Quote: "'",
  Comma: ',',
  Period: '.',
  Slash: '/',
  Backquote: '`',
  NumpadDecimal: 'numdec',
  NumpadAdd: 'numadd',
  NumpadSubtract: 'numsub',
  NumpadMultiply: 'nummult',
  NumpadDivide: 'numdiv',
  AudioVolumeUp: 'VolumeUp',
  AudioVolumeDown: 'VolumeDown',
  AudioVolumeMute: 'VolumeMute',
  MediaTrackNext: 'MediaNextTrack',
  MediaTrackPrevious: 'MediaPreviousTrack',
  MediaStop: 'MediaStop',
  MediaPlayPause: 'MediaPlayPause',
}
/** Keys that may stand alone (they type nothing): function and media keys. */
const ALONE = /^(F([1-9]|1[0-9]|2[0-4])|Volume(Up|Down|Mute)|Media\w+)$/

/** The key Electron names for a physical key (`code`, so the layout's shifted characters do not matter). */
function keyOf(press: KeyPress): string | null {
  const { code } = press
  if (/^Key[A-Z]$/.test(code)) return code.slice(3)
  if (/^Digit[0-9]$/.test(code)) return code.slice(5)
  if (/^Numpad[0-9]$/.test(code)) return `num${code.slice(6)}`
  if (/^F([1-9]|1[0-9]|2[0-4])$/.test(code)) return code
  if (CODE_KEYS[code]) return CODE_KEYS[code]
  // Media keys report no `code` on some systems, only `key`.
  if (CODE_KEYS[press.key]) return CODE_KEYS[press.key]
  return null
}

const MODIFIER_KEYS = new Set(['Control', 'Meta', 'Alt', 'Shift', 'AltGraph', 'OS'])

/**
 * The accelerator for a key press: Ctrl (⌘ on macOS) is `CommandOrControl`, so the binding means the same
 * on every platform; then `Control` (macOS' Ctrl), `Super` (the Windows/Super key elsewhere), `Alt`, `Shift`.
 */
export function acceleratorFromKeys(press: KeyPress, mac: boolean): RecordedKeys {
  if (MODIFIER_KEYS.has(press.key)) return { type: 'incomplete' }
  const mods: string[] = []
  const primary = mac ? press.metaKey : press.ctrlKey
  if (primary) mods.push('CommandOrControl')
  if (mac && press.ctrlKey) mods.push('Control')
  if (!mac && press.metaKey) mods.push('Super')
  if (press.altKey) mods.push('Alt')
  if (press.shiftKey) mods.push('Shift')
  const key = keyOf(press)
  if (key === 'Escape' && mods.length === 0) return { type: 'cancel' }
  if (!key) return { type: 'unsupported' }
  const bare = mods.length === 0 || (mods.length === 1 && mods[0] === 'Shift')
  if (bare && !ALONE.test(key)) return { type: 'needs-modifier' }
  return { type: 'accelerator', accelerator: [...mods, key].join('+') }
}

/** How an accelerator is shown: `Ctrl+Alt+L`, or on macOS `⌘⌥L`. */
export function describeAccelerator(accelerator: string, mac: boolean): string {
  if (!accelerator) return ''
  const parts = accelerator.split('+')
  const key = parts.pop() ?? ''
  const macNames: Record<string, string> = {
    commandorcontrol: '⌘',
    cmdorctrl: '⌘',
    command: '⌘',
    cmd: '⌘',
    control: '⌃',
    ctrl: '⌃',
    alt: '⌥',
    option: '⌥',
    shift: '⇧',
    super: '⌘',
    meta: '⌘',
  }
  const names: Record<string, string> = {
    commandorcontrol: 'Ctrl',
    cmdorctrl: 'Ctrl',
    command: 'Ctrl',
    cmd: 'Ctrl',
    control: 'Ctrl',
    ctrl: 'Ctrl',
    option: 'Alt',
    super: 'Super',
    meta: 'Super',
  }
  const keyNames: Record<string, string> = { Up: '↑', Down: '↓', Left: '←', Right: '→' }
  const shownKey = keyNames[key] ?? (key.length === 1 ? key.toUpperCase() : key)
  if (mac) return parts.map((part) => macNames[part.toLowerCase()] ?? part).join('') + shownKey
  return [...parts.map((part) => names[part.toLowerCase()] ?? part), shownKey].join('+')
}
