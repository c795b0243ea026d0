/**
 * The global shortcuts' actions, defaults and state, apart from the key mapping (`./global-shortcuts`),
 * so the settings' defaults (in the renderer's first bundle) carry nothing else.
 */

export const SHORTCUT_ACTIONS = [
  'play-pause',
  'next',
  'previous',
  'like',
  'volume-up',
  'volume-down',
  'desktop-lyrics',
] as const
export type ShortcutAction = (typeof SHORTCUT_ACTIONS)[number]
export type ShortcutMap = Record<ShortcutAction, string>

/** Only the desktop-lyrics toggle is bound at first; the rest wait for the person to choose keys. */
export const DEFAULT_SHORTCUTS: ShortcutMap = {
  'play-pause': '',
  next: '',
  previous: '',
  like: '',
  'volume-up': '',
  'volume-down': '',
  'desktop-lyrics': 'CommandOrControl+Alt+L',
}
export const ACCELERATOR_MAX = 100

/** How a registration went: bound, held by another application, or no keys chosen. */
export type ShortcutStatus = 'registered' | 'taken' | 'unset'
export type ShortcutsState = Record<ShortcutAction, ShortcutStatus>
