import { DataSourceError } from '@shared/errors'
import type { ApiClient } from '../api/client'
import { unauthorized } from '../api/errors'
import type { Logger } from '../log'
import type { Vault } from './vault'

/**
 * "Did this failure mean the login expired?" Real servers answer a forgotten session with a generic `-1`
 * or an HTTP 5xx, not 401, so a failed call may be asked about with `/connect/status`. Only a clear
 * "signed out" counts; an unreachable or failing server leaves the login as it is, so an outage never
 * looks like a logout. The auth service (service.ts) owns the state; this decides when it expires.
 */

/** When a call was sent, on the policy's clock, and whether it carried a credential. */
export interface CallMark {
  at: number
  withCredential: boolean
}

export interface ExpiryPolicyDeps {
  vault: Pick<Vault, 'has'>
  client: (sourceId: string) => ApiClient | undefined
  log: Logger
  /** The data source said the login is gone: forget it and say so. */
  expire: (sourceId: string) => void
  /** Checks the login with `/connect/status` (the service's one check per source at a time). */
  check: (sourceId: string) => Promise<unknown>
  /** Whether main signs this source in by itself after it expired (the built-in one). */
  canAutoSignIn: (sourceId: string) => boolean
}

export function createExpiryPolicy(deps: ExpiryPolicyDeps) {
  const { vault, expire } = deps
  /**
   * A clock that orders calls and login checks: a check that started after a call was sent already answers
   * "was that the login?" for it, so a burst of failures costs one `/connect/status` at most.
   */
  let clock = 0
  const confirms = new Map<string, Promise<boolean>>()
  const lastConfirm = new Map<string, { startedAt: number; done: Promise<boolean> }>()

  /**
   * Asks `/connect/status` whether the login is gone, one question per source at a time. Only a clear
   * "signed out" counts (and expires the login); an unreachable or failing server leaves everything as is,
   * so an outage never looks like a logout.
   */
  const confirmGone = (sourceId: string): Promise<boolean> => {
    const running = confirms.get(sourceId)
    if (running) return running
    const done = (async () => {
      const client = deps.client(sourceId)
      if (!vault.has(sourceId)) return true
      if (!client) return false
      try {
        await client.loginStatus()
        return false
      } catch (error) {
        if (!(error instanceof DataSourceError) || error.kind !== 'unauthorized') return false
        if (vault.has(sourceId)) expire(sourceId)
        if (deps.canAutoSignIn(sourceId)) {
          void deps.check(sourceId)
        }
        return true
      }
    })().finally(() => confirms.delete(sourceId))
    confirms.set(sourceId, done)
    lastConfirm.set(sourceId, { startedAt: ++clock, done })
    return done
  }

  const policy = {
    /** Marks a call as sent (and whether it carried a credential); `settle` takes the mark back. */
    callStarted: (sourceId: string): CallMark => ({ at: ++clock, withCredential: vault.has(sourceId) }),
    /**
     * A call failed: the error to report. Real servers answer a forgotten session with a generic `-1` or
     * an HTTP 5xx, not 401, so when a call sent with a credential fails that way, `/connect/status` is
     * asked (one question for every call in flight; none when one began after the call was sent). If the
     * login is gone, the credential is cleared (`auth:changed` says `expired`) and the failure is reported
     * as `unauthorized`; otherwise, or if that question fails too, the original error stands and the
     * auth state is untouched.
     */
    async settle(sourceId: string, error: unknown, sent: CallMark): Promise<unknown> {
      if (!(error instanceof DataSourceError)) return error
      if (error.kind === 'unauthorized') {
        void policy.handleUnauthorized(sourceId, error).catch(() => {})
        return error
      }
      if (!couldMeanSignedOut(error) || !sent.withCredential) return error
      const recent = lastConfirm.get(sourceId)
      const gone = await (recent && recent.startedAt > sent.at ? recent.done : confirmGone(sourceId))
      if (!gone) return error
      deps.log.info('a failed call turned out to be an expired login', { endpoint: error.endpoint })
      return unauthorized(error.endpoint, error.status, error.code)
    },
    /** Any call answered `unauthorized`: confirm with `/connect/status`, then forget the login. */
    async handleUnauthorized(sourceId: string, error: DataSourceError): Promise<void> {
      if (!vault.has(sourceId)) return
      if (error.endpoint === '/connect/status') {
        expire(sourceId)
        return
      }
      await deps.check(sourceId)
    },
  }
  return policy
}

/**
 * Failures that real servers give for a forgotten session: an error envelope (NeteaseMusicAdapter's
 * `-1 服务器内部错误`, QMusicAdapter's `-1 搜索失败…`) or an HTTP 5xx. Not network trouble, timeouts or
 * unusable answers, and not `/connect/status` itself (its answer already decides).
 */
export function couldMeanSignedOut(error: DataSourceError): boolean {
  if (error.endpoint === '/connect/status') return false
  if (error.kind === 'api') return true
  return error.kind === 'http' && (error.status ?? 0) >= 500
}
