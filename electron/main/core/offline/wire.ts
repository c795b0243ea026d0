import { DataSourceError } from '@shared/errors'
import type { ActiveCall, ActiveSource, SourceClients } from '../sources/active'
import type { SourceRegistry } from '../sources/registry'
import { createOffline } from './index'
import type { OfflineDeps } from './index'

/** A fetch that reports each answer a data source gives (not a gateway's 502–504 for a stopped one). */
export const offlineAware =
  (inner: () => typeof fetch, answered: () => void): typeof fetch =>
  async (input, init) => {
    const response = await inner()(input, init)
    if (response.status < 502 || response.status > 504) answered()
    return response
  }

export type OfflineWiringDeps = Pick<
  OfflineDeps,
  | 'mediaDir'
  | 'limits'
  | 'freeSpace'
  | 'store'
  | 'settings'
  | 'events'
  | 'userId'
  | 'fetch'
  | 'fetchFor'
  | 'timers'
  | 'log'
> & {
  active: ActiveSource
  clients: SourceClients
  registry: SourceRegistry
}

/**
 * Offline mode wired to the active data source (createCore's part): `call` is `active.call`, and a
 * failure that says the source cannot be reached turns offline mode on; the probe asks the active
 * source's login status to learn when it is back.
 */
export function wireOffline(deps: OfflineWiringDeps): {
  call: ActiveCall
  offline: ReturnType<typeof createOffline>
} {
  const { active, clients, registry } = deps
  /** `active.call`, and a failure that says the source cannot be reached turns offline mode on. */
  const call: ActiveCall = async (run) => {
    try {
      return await active.call(run)
    } catch (error) {
      offline.failed(error)
      throw error
    }
  }
  const offline = createOffline({
    mediaDir: deps.mediaDir,
    limits: deps.limits,
    freeSpace: deps.freeSpace,
    store: deps.store,
    settings: deps.settings,
    events: deps.events,
    call,
    probe: async () => {
      const api = clients.get(registry.active().id)
      if (!api) throw new DataSourceError({ kind: 'network', message: 'The data source is not available' })
      await api.loginStatus().catch((error: unknown) => {
        if (offline.isUnreachable(error)) throw error
      })
    },
    activeSourceId: () => registry.active().id,
    sourceName: (id) => registry.get(id)?.name,
    userId: deps.userId,
    fetch: deps.fetch,
    fetchFor: deps.fetchFor,
    timers: deps.timers,
    log: deps.log,
  })
  return { call, offline }
}
