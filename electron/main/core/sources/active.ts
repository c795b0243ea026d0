import { DataSourceError } from '@shared/errors'
import { createApiClient } from '../api/client'
import type { ApiClient } from '../api/client'
import type { AuthService } from '../auth/service'
import type { Vault } from '../auth/vault'
import type { CollectionService } from '../collection/service'
import type { EventHub } from '../events'
import type { Logger } from '../log'
import type { SourceRegistry } from './registry'

/**
 * The active data source: which client answers a call, what switching sources resets, and what goes when a
 * source is removed. `createCore` (core/index.ts) only wires these to the handlers.
 */

/** Runs a call against the active data source's client (and reports an `unauthorized` answer). */
export type ActiveCall = <T>(run: (api: ApiClient, sourceId: string) => Promise<T>) => Promise<T>
/** Runs a call against one named data source's client (a queued song of another source than the active one). */
export type SourceCall = <T>(
  sourceId: string,
  run: (api: ApiClient, sourceId: string) => Promise<T>,
) => Promise<T>

/** The message of a call to a data source that is no longer in the list. */
export const SOURCE_REMOVED = 'Its data source was removed from Cadence'

export interface SourceClientsDeps {
  registry: SourceRegistry
  vault: Vault
  fetch?: typeof fetch
  timeoutMs?: number
  log: Logger
}

/** One client per data source, rebuilt when its address changes (the built-in one's port can). */
export function createSourceClients(deps: SourceClientsDeps) {
  const { registry, vault } = deps
  const clients = new Map<string, { url: string; client: ApiClient }>()
  const client = (sourceId: string): ApiClient | undefined => {
    const source = registry.get(sourceId)
    if (!source?.url) return undefined
    const held = clients.get(sourceId)
    if (held && held.url === source.url) return held.client
    const url = source.url
    const created = createApiClient({
      baseUrl: url,
      // Only while the source is still at this address: a request still in flight (or its one retry)
      // when the built-in source's process exited must not carry the credential to whatever took its port.
      getCredential: () => (registry.get(sourceId)?.url === url ? vault.get(sourceId) : undefined),
      fetch: deps.fetch,
      timeoutMs: deps.timeoutMs,
      log: deps.log,
    })
    clients.set(sourceId, { url: source.url, client: created })
    return created
  }
  return {
    /** The source's client, or undefined while it has no address (the built-in one is starting). */
    get: client,
    /** Forget every client's cached browse answers. */
    clearCaches(): void {
      for (const { client } of clients.values()) client.clearCache()
    },
    delete(sourceId: string): void {
      clients.delete(sourceId)
    },
  }
}

export type SourceClients = ReturnType<typeof createSourceClients>

export interface ActiveSourceDeps {
  registry: SourceRegistry
  clients: SourceClients
  auth: AuthService
  collection: CollectionService
  events: EventHub
  /** Forgets what main keeps per source outside these services (the player's saved session). */
  forgetSession: (sourceId: string) => void
}

export function createActiveSource(deps: ActiveSourceDeps) {
  const { registry, clients, auth, collection, events } = deps
  const emitSources = () => events.emit('sources:changed', registry.list())

  const callOn: SourceCall = async (sourceId, run) => {
    const source = registry.get(sourceId)
    if (!source) throw new DataSourceError({ kind: 'api', message: SOURCE_REMOVED })
    const api = clients.get(source.id)
    if (!api) {
      throw new DataSourceError({
        kind: 'network',
        message:
          source.builtin && source.state !== 'failed'
            ? 'The built-in library is starting; try again in a moment'
            : 'The data source is not available',
      })
    }
    const sent = auth.callStarted(source.id)
    try {
      return await run(api, source.id)
    } catch (error) {
      // An error that may mean "logged out" is checked with /connect/status and may become `unauthorized`.
      throw await auth.settle(source.id, error, sent)
    }
  }
  const call: ActiveCall = (run) => callOn(registry.active().id, run)

  const activate = (id: string) => {
    if (registry.active().id === id) return
    auth.cancelQr()
    registry.setActive(id)
    clients.clearCaches()
    emitSources()
    collection.announce()
    events.emit('auth:changed', auth.state(id))
    void auth.check(id)
  }

  /** A data source was removed: its login, client, session and collection go with it. */
  const remove = (id: string) => {
    const wasActive = registry.active().id === id
    registry.remove(id)
    auth.forget(id)
    clients.delete(id)
    deps.forgetSession(id)
    collection.forget(id)
    emitSources()
    if (wasActive) {
      collection.announce()
      events.emit('auth:changed', auth.state())
      void auth.check()
    }
  }

  return {
    call,
    callOn,
    activate,
    remove,
    /** Tell the renderer the list of sources changed. */
    emitSources,
    /** The active data source's API client; throws a network error while the built-in one is not running. */
    api: (): ApiClient => {
      const api = clients.get(registry.active().id)
      if (!api) throw new DataSourceError({ kind: 'network', message: 'The data source is not available' })
      return api
    },
  }
}

export type ActiveSource = ReturnType<typeof createActiveSource>
