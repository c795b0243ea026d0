import { globalShortcut } from 'electron'
import type { ShortcutPort } from '../core'

/** Electron's `globalShortcut` as the core's `ShortcutPort` (core/shortcuts decides what and when). */
export const globalShortcutPort: ShortcutPort = {
  register: (accelerator, onPress) => globalShortcut.register(accelerator, onPress),
  unregister: (accelerator) => globalShortcut.unregister(accelerator),
}
