import type { Handlers } from '../ipc/router'
import type { EventHub } from '../events'
import type { Logger } from '../log'
import type { Timers } from '../ports'
import { createHistoryService } from './service'
import type { HistoryService } from './service'
import { openHistoryStore } from './store'

export { createHistoryService, HISTORY_RETRY_MS } from './service'
export type { HistoryService } from './service'
export { HISTORY_FILE_VERSION, openHistoryStore } from './store'
export type { HistoryStore } from './store'
export { fromListenBrainz, toListenBrainz } from './listenbrainz'

type HistoryChannels = Extract<keyof Handlers, `history:${string}`>

export function createHistoryHandlers(history: HistoryService): Pick<Handlers, HistoryChannels> {
  return {
    'history:record': (listen) => history.record(listen),
    'history:page': ({ limit, before }) => history.page(limit, before),
    'history:state': () => history.state(),
    'history:set-private': ({ on }) => history.setPrivate(on),
    'history:clear': () => history.clear(),
    'history:export': () => history.exportFile(),
    'history:import': ({ text }) => history.importFile(text),
    'history:heard-since': ({ since, sourceId }) =>
      [...history.heardSince(since)]
        .filter((key) => key.startsWith(`${sourceId}:`))
        .map((key) => key.slice(sourceId.length + 1)),
    'history:stats': ({ range, utcOffsetMinutes }) => history.stats(range, utcOffsetMinutes),
  }
}

/**
 * The listening history: its SQLite file at `path` (the app: `<userData>/history.sqlite`; without one,
 * in memory), the service and its IPC handlers.
 */
export function createHistory(deps: { path?: string; events: EventHub; timers: Timers; log: Logger }) {
  const service = createHistoryService({ ...deps, store: openHistoryStore(deps.path ?? ':memory:') })
  return { service, handlers: createHistoryHandlers(service) }
}
