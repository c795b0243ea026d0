import type { AppInfo } from '@shared/ipc/contract'
import { createApiClient } from './api/client'
import type { ApiClient } from './api/client'
import { createCatalogHandlers } from './catalog/handlers'
import { createEventHub } from './events'
import { createIpcRouter } from './ipc/router'
import { silentLogger } from './log'
import type { LoggerFactory } from './log'
import type { KeyValueStore, SecretCipher } from './ports'

/**
 * The main process without Electron: every decision lives here, with its dependencies injected.
 * The glue (electron/main/index.ts) and the end-to-end harness (test/e2e/harness.ts) both build it.
 */
export interface CoreDeps {
  store: KeyValueStore
  cipher: SecretCipher
  /** URL of the data source to talk to (the built-in one, started by main). */
  dataSourceUrl: string
  /** Only our own renderer may call main. */
  isTrustedSender: (senderUrl: string) => boolean
  appInfo: AppInfo
  fetch?: typeof fetch
  log?: LoggerFactory
}

export type Core = ReturnType<typeof createCore>

export function createCore(deps: CoreDeps) {
  const log = deps.log ?? silentLogger
  const events = createEventHub()
  const api: ApiClient = createApiClient({
    baseUrl: deps.dataSourceUrl,
    getCredential: () => undefined,
    fetch: deps.fetch,
    log: log('api'),
  })

  const router = createIpcRouter(
    {
      'app:info': () => deps.appInfo,
      ...createCatalogHandlers(() => api),
    },
    { isTrustedSender: deps.isTrustedSender, log: log('ipc') },
  )

  return {
    router,
    events,
    api: () => api,
    dispose() {},
  }
}

export type { KeyValueStore, SecretCipher } from './ports'
export { createMemoryStore } from './ports'
