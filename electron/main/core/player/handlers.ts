import { playerSessionSchema } from '@shared/ipc/schemas'
import type { PlayerSession, PlayerState } from '@shared/ipc/contract'
import { CadenceError } from '@shared/errors'
import type { ActiveCall } from '../catalog/handlers'
import type { Handlers } from '../ipc/router'
import type { KeyValueStore } from '../ports'

type PlayerChannels = Extract<keyof Handlers, `player:${string}`>

/** Largest saved player session (its JSON), so a runaway queue cannot bloat the settings file. */
export const MAX_SESSION_CHARS = 5 * 1024 * 1024
export const sessionKey = (sourceId: string) => `session:${sourceId}`

export function createPlayerHandlers(deps: {
  call: ActiveCall
  userId: () => string | number | undefined
  activeSourceId: () => string
  store: KeyValueStore
  onState: (state: PlayerState) => void
  /** A session was saved (the quit sequence waits for one). */
  onSessionSaved?: () => void
}): Pick<Handlers, PlayerChannels> {
  return {
    // Never cached: the media URL in `meta.url` expires.
    'player:resolve': ({ id, br }) => deps.call((api) => api.songDetail(id, deps.userId(), br)),
    'player:report-state': (state) => deps.onState(state),
    'player:save-session': (session) => {
      const text = JSON.stringify(session)
      if (text.length > MAX_SESSION_CHARS) {
        throw new CadenceError({
          kind: 'invalid-argument',
          message: `The player session is too large to save (${Math.round(text.length / 1024)} KiB, at most ${MAX_SESSION_CHARS / 1024} KiB)`,
        })
      }
      deps.store.set(sessionKey(deps.activeSourceId()), text)
      deps.onSessionSaved?.()
    },
    'player:load-session': (): PlayerSession | null => {
      const text = deps.store.get<unknown>(sessionKey(deps.activeSourceId()))
      if (typeof text !== 'string' || text.length > MAX_SESSION_CHARS) return null
      try {
        const parsed = playerSessionSchema.safeParse(JSON.parse(text))
        return parsed.success ? parsed.data : null
      } catch {
        return null
      }
    },
  }
}
