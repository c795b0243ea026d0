import type { Id, User } from '@shared/api/models'
import { CadenceError, DataSourceError } from '@shared/errors'
import type { AuthState, AuthStatus, QrEvent } from '@shared/ipc/contract'
import type { Settings } from '@shared/settings'
import type { ApiClient } from '../api/client'
import type { EventHub } from '../events'
import type { Logger } from '../log'
import type { KeyValueStore, Timers, WindowsPort } from '../ports'
import type { SourceRegistry } from '../sources/registry'
import { BUILTIN_ID } from '../sources/registry'
import { signInBuiltin } from './builtin-signin'
import { createExpiryPolicy } from './expiry'
import { startQrFlow } from './qr-flow'
import type { QrFlow } from './qr-flow'
import type { Vault } from './vault'

/**
 * Who is signed in to which data source. Holds the QR login flow, checks `/connect/status`, and turns
 * any `unauthorized` answer into "the login is gone": credential cleared, `auth:changed` with `expired`
 * (when a failed call means that is decided in expiry.ts).
 * The built-in data source is signed in by main itself (`signInBuiltin`), unless the user signed out.
 */

export const BUILTIN_SIGNED_OUT_KEY = 'builtinSignedOut'
/** How long a logout waits for the data source to revoke the credential before forgetting it anyway. */
const LOGOUT_TIMEOUT_MS = 5_000

interface SourceAuth {
  status: AuthStatus
  user: User | null
  error?: DataSourceError
}

export interface AuthServiceDeps {
  vault: Vault
  sources: SourceRegistry
  client: (sourceId: string) => ApiClient | undefined
  events: EventHub
  store: KeyValueStore
  windows: WindowsPort
  timers: Timers
  settings: () => Settings
  renderQr: (text: string) => Promise<string>
  fetch?: typeof fetch
  log: Logger
  /** Sign the built-in source in by itself (default true). */
  autoSignInBuiltin?: boolean
  /** The owner passphrase the built-in data source was started with (its phone page asks for it). */
  builtinPassphrase?: () => string | undefined
}

export type AuthService = ReturnType<typeof createAuthService>

export type { CallMark } from './expiry'

export function createAuthService(deps: AuthServiceDeps) {
  const { vault, events, log } = deps
  const states = new Map<string, SourceAuth>()
  const checks = new Map<string, Promise<AuthState>>()
  let flow: { sourceId: string; flow: QrFlow } | undefined
  let lastQr: QrEvent | null = null

  const get = (sourceId: string): SourceAuth =>
    states.get(sourceId) ?? { status: vault.has(sourceId) ? 'unknown' : 'signed-out', user: null }

  const state = (sourceId = deps.sources.active().id): AuthState => {
    const s = get(sourceId)
    return {
      sourceId,
      status: s.status,
      user: s.user,
      storage: vault.storage(sourceId),
      ...(s.error ? { error: s.error.toPayload() } : {}),
    }
  }
  const set = (sourceId: string, next: SourceAuth) => {
    states.set(sourceId, next)
    // The renderer only shows the active source; other sources' changes wait until it is activated.
    if (sourceId === deps.sources.active().id) events.emit('auth:changed', state(sourceId))
  }

  const needClient = (sourceId: string): ApiClient => {
    const client = deps.client(sourceId)
    if (!client) {
      throw new DataSourceError({
        kind: 'network',
        message: 'The data source is not available yet',
      })
    }
    return client
  }

  const builtinSignedOut = () => deps.store.get<boolean>(BUILTIN_SIGNED_OUT_KEY) === true
  /** Main signs the built-in source in by itself unless turned off or the user signed out of it. */
  const canAutoSignIn = (sourceId: string) =>
    sourceId === BUILTIN_ID && deps.autoSignInBuiltin !== false && !builtinSignedOut()

  /** Stores a new credential and asks who it belongs to. */
  const adopt = async (sourceId: string, credential: string): Promise<User> => {
    const client = needClient(sourceId)
    vault.set(sourceId, credential)
    client.clearCache()
    try {
      const user = await client.loginStatus()
      if (sourceId === BUILTIN_ID) deps.store.delete(BUILTIN_SIGNED_OUT_KEY)
      set(sourceId, { status: 'signed-in', user })
      return user
    } catch (error) {
      if (error instanceof DataSourceError && error.kind === 'unauthorized') {
        vault.clear(sourceId)
        set(sourceId, { status: 'signed-out', user: null, error })
      } else if (error instanceof DataSourceError) {
        set(sourceId, { status: 'unknown', user: null, error })
      }
      throw error
    }
  }

  const autoSignIn = async (sourceId: string): Promise<AuthState> => {
    const client = needClient(sourceId)
    const credential = await signInBuiltin({
      api: client,
      passphrase: deps.builtinPassphrase?.() ?? '',
      fetch: deps.fetch,
      timers: deps.timers,
    })
    await adopt(sourceId, credential)
    log.info('signed in to the built-in data source')
    return state(sourceId)
  }

  /** The data source said the login is gone: forget it and say so. */
  const expire = (sourceId: string) => {
    log.info('the login has expired', { sourceId })
    vault.clear(sourceId)
    deps.client(sourceId)?.clearCache()
    set(sourceId, { status: 'expired', user: null })
  }

  const expiry = createExpiryPolicy({
    vault,
    client: deps.client,
    log,
    expire,
    check: (sourceId) => service.check(sourceId),
    canAutoSignIn,
  })

  const runCheck = async (sourceId: string): Promise<AuthState> => {
    const client = deps.client(sourceId)
    if (!client) {
      set(sourceId, { status: vault.has(sourceId) ? 'unknown' : 'signed-out', user: null })
      return state(sourceId)
    }
    const autoSignInAllowed = canAutoSignIn(sourceId)
    if (!vault.has(sourceId)) {
      if (autoSignInAllowed) {
        try {
          return await autoSignIn(sourceId)
        } catch (error) {
          log.warn('automatic sign-in to the built-in data source failed', { error: errorMessage(error) })
          set(sourceId, { status: 'signed-out', user: null, error: asDataSourceError(error) })
          return state(sourceId)
        }
      }
      set(sourceId, { status: 'signed-out', user: null })
      return state(sourceId)
    }
    try {
      const user = await client.loginStatus()
      set(sourceId, { status: 'signed-in', user })
    } catch (error) {
      if (error instanceof DataSourceError && error.kind === 'unauthorized') {
        expire(sourceId)
        if (autoSignInAllowed) {
          try {
            return await autoSignIn(sourceId)
          } catch (again) {
            log.warn('automatic sign-in after expiry failed', { error: errorMessage(again) })
          }
        }
      } else {
        // Unreachable or broken: keep the credential, say we could not check.
        const previous = get(sourceId)
        set(sourceId, { status: 'unknown', user: previous.user, error: asDataSourceError(error) })
      }
    }
    return state(sourceId)
  }

  const service = {
    state,
    /** The signed-in user's id on the active source, if any. */
    userId(sourceId = deps.sources.active().id): Id | undefined {
      const s = get(sourceId)
      return s.status === 'signed-in' ? s.user?.id : undefined
    },
    /** Checks the login with `/connect/status` (one check per source at a time). */
    check(sourceId = deps.sources.active().id): Promise<AuthState> {
      const running = checks.get(sourceId)
      if (running) return running
      const promise = runCheck(sourceId).finally(() => checks.delete(sourceId))
      checks.set(sourceId, promise)
      return promise
    },
    /** Marks a call as sent; `settle` takes the mark back (expiry.ts). */
    callStarted: expiry.callStarted,
    /** A call failed: the error to report, `unauthorized` when the login turned out to be gone (expiry.ts). */
    settle: expiry.settle,
    /** Any call answered `unauthorized`: confirm with `/connect/status`, then forget the login. */
    handleUnauthorized: expiry.handleUnauthorized,

    /** Starts the QR login, or joins the one already running for this source (a second window, a late mount). */
    startQr(): void {
      const source = deps.sources.active()
      const sourceId = source.id
      if (flow?.sourceId === sourceId) {
        deps.windows.openLogin()
        if (lastQr) events.emit('auth:qr', lastQr)
        return
      }
      service.cancelQr({ silent: true })
      if (sourceId === BUILTIN_ID) {
        // No phone needed: main confirms the code itself.
        deps.store.delete(BUILTIN_SIGNED_OUT_KEY)
        const emit = (event: QrEvent) => ((lastQr = event), events.emit('auth:qr', event))
        emit({ phase: 'loading' })
        vault.clear(sourceId)
        void autoSignIn(sourceId).then(
          (s) => emit({ phase: 'authorised', ...(s.user ? { user: s.user } : {}) }),
          (error) => emit({ phase: 'error', error: asDataSourceError(error).toPayload() }),
        )
        return
      }
      const client = needClient(sourceId)
      deps.windows.openLogin()
      const started = startQrFlow({
        api: client,
        timers: deps.timers,
        intervalMs: () => deps.settings().qrPollIntervalMs,
        renderQr: deps.renderQr,
        emit: (event) => {
          lastQr = event
          events.emit('auth:qr', event)
        },
        authorise: (credential) => adopt(sourceId, credential),
        log,
      })
      flow = { sourceId, flow: started }
      void started.done.then((phase) => {
        if (flow?.flow !== started) return
        flow = undefined
        if (phase === 'authorised' || phase === 'cancelled') deps.windows.closeLogin()
      })
    },
    cancelQr(options: { silent?: boolean; windowClosed?: boolean } = {}): void {
      const running = flow
      flow = undefined
      if (running) running.flow.cancel()
      if (!options.windowClosed && !options.silent) deps.windows.closeLogin()
    },
    /** The user closed the login window: stop polling at once. */
    loginWindowClosed(): void {
      service.cancelQr({ windowClosed: true })
    },
    qrState: (): QrEvent | null => lastQr,
    qrRunning: () => flow !== undefined,
    /** The address of the data source the running QR login is for (its `qrurl` must be on its origin). */
    qrSourceUrl: (): string | undefined => (flow ? deps.sources.get(flow.sourceId)?.url : undefined),

    async logout(): Promise<void> {
      const sourceId = deps.sources.active().id
      service.cancelQr({ silent: true })
      const client = deps.client(sourceId)
      if (client && vault.has(sourceId)) {
        // Revoked on the server first, so a copy of it is worth nothing; forgotten here whatever it says.
        try {
          await client.logout({ signal: AbortSignal.timeout(LOGOUT_TIMEOUT_MS) })
          log.info('credential revoked by the data source', { sourceId })
        } catch (error) {
          const absent = error instanceof DataSourceError && error.status === 404
          log.info(
            absent ? 'the data source has no logout' : 'the data source did not revoke the credential',
            {
              sourceId,
              reason: errorMessage(error),
            },
          )
        }
      }
      vault.clear(sourceId)
      deps.client(sourceId)?.clearCache()
      if (sourceId === BUILTIN_ID) deps.store.set(BUILTIN_SIGNED_OUT_KEY, true)
      set(sourceId, { status: 'signed-out', user: null })
      log.info('signed out', { sourceId })
    },
    /** A data source was removed: its login goes with it. */
    forget(sourceId: string): void {
      if (flow?.sourceId === sourceId) service.cancelQr()
      vault.clear(sourceId)
      states.delete(sourceId)
    },
    dispose(): void {
      service.cancelQr({ silent: true })
    },
  }
  return service
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function asDataSourceError(error: unknown): DataSourceError {
  if (error instanceof DataSourceError) return error
  if (error instanceof CadenceError) {
    return new DataSourceError({ kind: 'network', message: error.message })
  }
  return new DataSourceError({ kind: 'network', message: 'The data source could not be reached' })
}
