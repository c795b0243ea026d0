import type { EventHub } from '../events'

/** How long a quit waits for the renderer to save the player's session. */
export const QUIT_SAVE_TIMEOUT_MS = 1500

/**
 * Saving the player's session before quitting (createCore's `beforeQuit`): asks the renderer to save it
 * and resolves once `saved()` reports it, or after the timeout. At once when nothing is in the player.
 */
export function createQuitSave(deps: { events: EventHub; song: () => unknown }) {
  /** Set while `beforeQuit` waits for the renderer's save. */
  let sessionSaved: (() => void) | undefined
  return {
    /** The renderer saved the player's session. */
    saved: () => sessionSaved?.(),
    beforeQuit(timeoutMs = QUIT_SAVE_TIMEOUT_MS): Promise<void> {
      if (!deps.song()) return Promise.resolve()
      return new Promise<void>((done) => {
        const finish = () => {
          clearTimeout(timer)
          if (sessionSaved === finish) sessionSaved = undefined
          done()
        }
        const timer = setTimeout(finish, timeoutMs)
        sessionSaved = finish
        deps.events.emit('player:command', { command: 'save-session' })
      })
    },
  }
}
