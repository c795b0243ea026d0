import type { AppInfo } from '@shared/ipc/contract'
import type { Listen } from '@shared/ipc/history'
import type { Vault } from '../auth/vault'
import type { EventHub } from '../events'
import type { Handlers } from '../ipc/router'
import type { LoggerFactory } from '../log'
import { lateFetch } from '../ports'
import type { KeyValueStore, Timers } from '../ports'
import type { LastfmKeys } from './lastfm'
import { openScrobbleQueue } from './queue'
import { createScrobbleService } from './service'
import type { ScrobbleService } from './service'

export { createScrobbleService, SCROBBLE_CONFIG_KEY, vaultId } from './service'
export type { ScrobbleService } from './service'
export { openScrobbleQueue, SCROBBLE_FILE_VERSION } from './queue'
export { apiSignature, LASTFM_AUTH_PAGE, LASTFM_ROOT } from './lastfm'
export type { LastfmKeys } from './lastfm'

type ScrobbleChannels = Extract<keyof Handlers, `scrobble:${string}`>

export function createScrobbleHandlers(scrobble: ScrobbleService): Pick<Handlers, ScrobbleChannels> {
  return {
    'scrobble:state': () => scrobble.state(),
    'scrobble:connect-listenbrainz': ({ token, server }) => scrobble.connectListenBrainz(token, server),
    'scrobble:lastfm-begin': () => scrobble.beginLastfm(),
    'scrobble:lastfm-finish': () => scrobble.finishLastfm(),
    'scrobble:disconnect': ({ service }) => scrobble.disconnect(service),
    'scrobble:now-playing': (track) => void scrobble.nowPlaying(track),
  }
}

/**
 * Scrobbling: its queue file at `scrobblePath` (the app: `<userData>/scrobble-queue.sqlite`; without one,
 * in memory), the service, its IPC handlers, and `history:record` wrapped so a listen the history kept
 * (not private, not the placeholder) is queued for the services turned on. What waited from an earlier
 * run is sent at once.
 */
export function createScrobble(deps: {
  scrobblePath?: string
  lastfm?: LastfmKeys
  scrobbleRetryMs?: number
  fetch?: typeof fetch
  openExternal?: (url: string) => Promise<void> | void
  appInfo: AppInfo
  store: KeyValueStore
  vault: Vault
  events: EventHub
  timers: Timers
  log: LoggerFactory
  history: { record(listen: Listen): boolean; state(): { private: boolean } }
}) {
  const { history } = deps
  const service = createScrobbleService({
    queue: openScrobbleQueue(deps.scrobblePath ?? ':memory:'),
    vault: deps.vault,
    store: deps.store,
    events: deps.events,
    timers: deps.timers,
    log: deps.log('scrobble'),
    fetch: lateFetch(deps.fetch),
    appVersion: deps.appInfo.version,
    lastfm: deps.lastfm,
    openExternal: deps.openExternal ?? (() => undefined),
    isPrivate: () => history.state().private,
    retryBaseMs: deps.scrobbleRetryMs,
  })
  service.start()
  const handlers = {
    ...createScrobbleHandlers(service),
    'history:record': (listen: Listen) => {
      const kept = history.record(listen)
      if (kept) service.listened(listen)
      return kept
    },
  }
  return { service, handlers }
}
