import { SHORTCUT_ACTIONS, isValidAccelerator } from '@shared/global-shortcuts'
import type { ShortcutAction, ShortcutMap, ShortcutsState } from '@shared/global-shortcuts'
import type { EventHub } from '../events'
import type { Handlers } from '../ipc/router'
import type { Logger } from '../log'
import type { SettingsService } from '../settings/service'

/**
 * The global shortcuts: registers what Settings holds through the glue's `globalShortcut`, and says which
 * failed. Electron's `register` answers false, without a word, when another application holds the keys;
 * such a shortcut is `taken` (shown in Settings, logged), never dropped silently, and is tried again at
 * the next change or `shortcuts:retry`.
 */
export interface ShortcutPort {
  /** Electron's `globalShortcut.register`: false when another application holds it; may throw. */
  register(accelerator: string, onPress: () => void): boolean
  unregister(accelerator: string): void
}

export function createShortcuts(deps: {
  port?: ShortcutPort
  settings: SettingsService
  events: EventHub
  log: Logger
  onPress: (action: ShortcutAction) => void
}) {
  /** What is registered now, per action. */
  const held = new Map<ShortcutAction, string>()
  let state = blankState()

  const apply = (map: ShortcutMap, retry = false): ShortcutsState => {
    const next = blankState()
    // Release what changed first, so keys moved from one action to another can be taken by the other.
    for (const [action, accelerator] of [...held]) {
      if (map[action] === accelerator && !retry) continue
      deps.port?.unregister(accelerator)
      held.delete(action)
    }
    for (const action of SHORTCUT_ACTIONS) {
      const accelerator = map[action]
      if (!accelerator) continue
      if (held.get(action) === accelerator) {
        next[action] = 'registered'
        continue
      }
      next[action] = register(action, accelerator) ? 'registered' : 'taken'
    }
    const changed = JSON.stringify(next) !== JSON.stringify(state)
    state = next
    if (changed) deps.events.emit('shortcuts:changed', { ...state })
    return { ...state }
  }

  const register = (action: ShortcutAction, accelerator: string): boolean => {
    // Settings are validated already; checked again here, right before Electron sees it.
    if (!deps.port || !isValidAccelerator(accelerator)) return false
    try {
      if (deps.port.register(accelerator, () => deps.onPress(action))) {
        held.set(action, accelerator)
        return true
      }
      deps.log.warn('global shortcut is taken by another application', { action, accelerator })
    } catch (error) {
      deps.log.warn('global shortcut could not be registered', { action, accelerator, error: String(error) })
    }
    return false
  }

  const unsubscribe = deps.settings.onChange((next, previous) => {
    if (JSON.stringify(next.shortcuts) !== JSON.stringify(previous.shortcuts)) apply(next.shortcuts)
  })

  const handlers: Pick<Handlers, 'shortcuts:state' | 'shortcuts:retry'> = {
    'shortcuts:state': () => ({ ...state }),
    /** Tries the taken ones again (the other application may have let them go). */
    'shortcuts:retry': () => apply(deps.settings.get().shortcuts, true),
  }

  return {
    handlers,
    /** Registers the shortcuts in Settings (once the app is ready). */
    start: () => apply(deps.settings.get().shortcuts),
    state: () => ({ ...state }),
    dispose() {
      unsubscribe()
      for (const accelerator of held.values()) deps.port?.unregister(accelerator)
      held.clear()
    },
  }
}

function blankState(): ShortcutsState {
  return Object.fromEntries(SHORTCUT_ACTIONS.map((action) => [action, 'unset'])) as ShortcutsState
}
