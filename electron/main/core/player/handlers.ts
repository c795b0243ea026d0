import { playerSessionSchema } from '@shared/ipc/schemas'
import type { Song } from '@shared/api/models'
import type { PlayerSession, PlayerState } from '@shared/ipc/contract'
import { CadenceError, DataSourceError } from '@shared/errors'
import { DEFAULT_BITRATE } from '@shared/player/quality'
import type { ApiClient } from '../api/client'
import type { Handlers } from '../ipc/router'
import type { KeyValueStore } from '../ports'
import type { ActiveCall, SourceCall } from '../sources/active'
import { readSession, SESSION_KEY } from './session'

type PlayerChannels = Extract<keyof Handlers, `player:${string}`>

/** Largest saved player session (its JSON), so a runaway queue cannot bloat the settings file. */
export const MAX_SESSION_CHARS = 5 * 1024 * 1024
export { SESSION_KEY, legacySessionKey } from './session'

export function createPlayerHandlers(deps: {
  call: ActiveCall
  /** A call to the data source a queued song names (when it is not the active one). */
  callOn?: SourceCall
  /** The signed-in user's id on a source (default: the active one). */
  userId: (sourceId?: string) => string | number | undefined
  activeSourceId: () => string
  /** Every data source's id: their per-source sessions of older versions are folded into the one. */
  sourceIds?: () => string[]
  store: KeyValueStore
  onState: (state: PlayerState) => void
  /** A session was saved (the quit sequence waits for one). */
  onSessionSaved?: () => void
  /**
   * The address the renderer plays a resolved song from (main's media scheme) in place of the data
   * source's signed URL, which never reaches the renderer. Without it `meta.url` is left as the server
   * sent it.
   */
  mediaUrl?: (ref: { sourceId: string; songId: string; br: number }, signedUrl: string, song: Song) => string
}): Pick<Handlers, PlayerChannels> {
  return {
    // Never cached: the media URL in `meta.url` expires.
    'player:resolve': async ({ id, br, sourceId: named }) => {
      // A queued song names its data source: asked of that one (active or not).
      const elsewhere = named !== undefined && named !== deps.activeSourceId() && deps.callOn
      const uid = deps.userId(elsewhere ? named : undefined)
      const run = async (api: ApiClient, sourceId: string) => ({
        song: await api.songDetail(id, uid, br),
        sourceId,
      })
      let resolved: { song: Song; sourceId: string }
      try {
        resolved = elsewhere ? await elsewhere(named, run) : await deps.call(run)
      } catch (error) {
        throw uid === undefined ? signedOutRefusal(error) : error
      }
      const { song, sourceId } = resolved
      const meta = song.meta
      if (!meta?.url || !deps.mediaUrl) return song
      // Without a requested bitrate the server chose one: ask for that one again when re-resolving.
      const bitrate = br ?? meta.bitrate ?? DEFAULT_BITRATE
      const url = deps.mediaUrl({ sourceId, songId: String(id), br: bitrate }, meta.url, song)
      return { ...song, meta: { ...meta, url } }
    },
    'player:report-state': (state) => deps.onState(state),
    'player:save-session': (session) => {
      const text = JSON.stringify(session)
      if (text.length > MAX_SESSION_CHARS) {
        throw new CadenceError({
          kind: 'invalid-argument',
          message: `The player session is too large to save (${Math.round(text.length / 1024)} KiB, at most ${MAX_SESSION_CHARS / 1024} KiB)`,
        })
      }
      deps.store.set(SESSION_KEY, text)
      deps.onSessionSaved?.()
    },
    'player:load-session': (): PlayerSession | null => {
      const parsed = playerSessionSchema.safeParse(
        readSession(deps.store, deps.activeSourceId(), deps.sourceIds?.() ?? [], MAX_SESSION_CHARS),
      )
      return parsed.success ? parsed.data : null
    },
  }
}

/**
 * The spec makes `uid` a required parameter of `/song/detail`, and a signed-out player has none to send.
 * Our server does not need it, but servers that do answer with a bare `-1` (NeteaseMusicAdapter's
 * `服务器内部错误`), a 400 or a 5xx. Signed out, such a refusal means "this server plays for signed-in
 * users only": said as such, as `unauthorized`, so the app offers the login. A 404 (no such song), network
 * trouble or an unusable answer are left as they are.
 */
function signedOutRefusal(error: unknown): unknown {
  if (!(error instanceof DataSourceError)) return error
  const refused = error.kind === 'api' || error.kind === 'http' || error.kind === 'unauthorized'
  if (!refused || error.status === 404) return error
  return new DataSourceError({
    kind: 'unauthorized',
    endpoint: error.endpoint,
    status: error.status,
    code: error.code,
    message: 'This data source plays songs only for signed-in users. Log in, then play again.',
  })
}
