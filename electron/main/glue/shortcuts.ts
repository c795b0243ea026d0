import { globalShortcut } from 'electron'
import type { PlayerCommandName } from '@shared/ipc/contract'
import type { Logger } from '../core/log'

/** Media keys → player commands. */
export const MEDIA_KEYS: ReadonlyArray<[accelerator: string, command: PlayerCommandName]> = [
  ['MediaPlayPause', 'toggle'],
  ['MediaNextTrack', 'next'],
  ['MediaPreviousTrack', 'previous'],
  ['MediaStop', 'stop'],
]

/**
 * Registers the media keys where the platform allows it. A key another app holds (or a platform that
 * refuses, e.g. macOS without accessibility trust) is logged, never fatal: the renderer's media session
 * (MPRIS on Linux) covers it too. Returns a function that unregisters what was registered.
 */
export function registerMediaKeys(onCommand: (command: PlayerCommandName) => void, log: Logger): () => void {
  const registered: string[] = []
  for (const [accelerator, command] of MEDIA_KEYS) {
    try {
      if (globalShortcut.register(accelerator, () => onCommand(command))) registered.push(accelerator)
      else log.warn('media key is taken by another application', { accelerator })
    } catch (error) {
      log.warn('media key could not be registered', {
        accelerator,
        error: error instanceof Error ? error.message : String(error),
      })
    }
  }
  return () => {
    for (const accelerator of registered) globalShortcut.unregister(accelerator)
  }
}
