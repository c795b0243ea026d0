import type { User } from '@shared/api/models'
import { CadenceError, DataSourceError } from '@shared/errors'
import type { ErrorPayload } from '@shared/errors'
import type { QrEvent, QrPhase } from '@shared/ipc/contract'
import type { ApiClient } from '../api/client'
import { isLoopbackHost } from '../sources/url'
import type { Logger } from '../log'
import type { Timers } from '../ports'

/**
 * The QR login loop: key → create → show the code → poll `/connect/qr/check` → at status 2 hand the
 * credential over. Every step that fails is retried with a doubling delay (up to 30 s) after an `error`
 * event, except an unusable answer (`invalid-response`), which ends the flow with `error`; an expired code is replaced by itself up to `maxRefreshes` times. `cancel()` stops everything
 * at once: the pending timer is cleared and the request in flight is aborted.
 */

export type QrApi = Pick<ApiClient, 'qrKey' | 'qrCreate' | 'qrCheck'>

export interface QrFlowDeps {
  api: QrApi
  timers: Timers
  /** The polling interval (settings.qrPollIntervalMs), read at every poll. */
  intervalMs: () => number
  /** Renders `qrurl` as a PNG data URI when the server sends no image (qrcode's toDataURL in the app). */
  renderQr: (text: string) => Promise<string>
  emit: (event: QrEvent) => void
  /** Status 2: store the credential and return the user (calls `/connect/status`). */
  authorise: (credential: string) => Promise<User>
  log: Logger
  maxRefreshes?: number
  maxBackoffMs?: number
}

export interface QrFlow {
  /** Resolves when the flow ends: authorised, given up (expired), cancelled or failed for good. */
  readonly done: Promise<QrPhase>
  readonly phase: QrPhase
  /** The last event (for a window that opens after the flow started). */
  readonly last: QrEvent | undefined
  cancel(): void
}

/** Some servers use 800–803 for the same states (expired, waiting, scanned, authorised). */
function normaliseStatus(status: number): -1 | 0 | 1 | 2 | undefined {
  if (status === -1 || status === 800) return -1
  if (status === 0 || status === 801) return 0
  if (status === 1 || status === 802) return 1
  if (status === 2 || status === 803) return 2
  return undefined
}

const toPayload = (error: unknown): ErrorPayload =>
  error instanceof CadenceError
    ? error.toPayload()
    : { name: 'IpcError', kind: 'internal', message: 'The QR login failed unexpectedly' }

/** Whether a code's page is on a loopback address, which only this computer can open. */
function onThisComputer(qrurl: string): boolean {
  try {
    return isLoopbackHost(new URL(qrurl).hostname)
  } catch {
    return false
  }
}

export function startQrFlow(deps: QrFlowDeps): QrFlow {
  const maxRefreshes = deps.maxRefreshes ?? 3
  const maxBackoffMs = deps.maxBackoffMs ?? 30_000
  let phase: QrPhase = 'loading'
  let last: QrEvent | undefined
  let refreshes = 0
  let key = ''
  let code: { qrurl: string; qrimg: string; onThisComputer?: true } | undefined
  let timer: unknown
  let controller: AbortController | undefined
  let failures = 0
  let finished = false
  let resolveDone!: (phase: QrPhase) => void
  const done = new Promise<QrPhase>((resolve) => (resolveDone = resolve))

  const emit = (next: QrPhase, extra: Partial<QrEvent> = {}) => {
    phase = next
    last = { phase: next, ...(code ? code : {}), refreshes, ...extra }
    deps.emit(last)
  }
  const finish = (final: QrPhase, extra: Partial<QrEvent> = {}) => {
    if (finished) return
    finished = true
    if (timer !== undefined) deps.timers.clearTimeout(timer)
    timer = undefined
    controller?.abort()
    controller = undefined
    emit(final, extra)
    resolveDone(final)
  }
  const schedule = (step: () => Promise<void>, ms: number) => {
    if (finished) return
    timer = deps.timers.setTimeout(() => {
      timer = undefined
      void run(step)
    }, ms)
  }
  /** Runs one step; a failure is reported and the same step retried later with a doubling delay. */
  const run = async (step: () => Promise<void>) => {
    if (finished) return
    controller = new AbortController()
    try {
      await step()
    } catch (error) {
      if (finished) return
      if (error instanceof DataSourceError && error.kind === 'cancelled') return
      // A malformed or oversized answer comes back the same when asked again: stop, do not hammer.
      if (error instanceof DataSourceError && error.kind === 'invalid-response') {
        deps.log.warn('QR login stopped: the data source sent an unusable answer', {
          endpoint: error.endpoint,
        })
        finish('error', { error: toPayload(error) })
        return
      }
      failures++
      const delay = Math.min(deps.intervalMs() * 2 ** failures, maxBackoffMs)
      deps.log.warn('QR login step failed; retrying', {
        kind: error instanceof CadenceError ? error.kind : 'internal',
        retryInMs: delay,
      })
      emit('error', { error: toPayload(error) })
      schedule(step, delay)
    }
  }
  const signal = () => controller?.signal

  /** A fresh key and code. */
  const newCode = async () => {
    const { unikey } = await deps.api.qrKey({ signal: signal() })
    if (finished) return
    const created = await deps.api.qrCreate(unikey, true, { signal: signal() })
    if (finished) return
    const qrimg = created.qrimg?.startsWith('data:image/')
      ? created.qrimg
      : await deps.renderQr(created.qrurl)
    if (finished) return
    key = unikey
    code = { qrurl: created.qrurl, qrimg, ...(onThisComputer(created.qrurl) ? { onThisComputer: true } : {}) }
    failures = 0
    emit('waiting')
    schedule(poll, deps.intervalMs())
  }

  const poll = async () => {
    const answer = await deps.api.qrCheck(key, { signal: signal() })
    if (finished) return
    const recovered = failures > 0
    failures = 0
    const status = normaliseStatus(answer.status)
    switch (status) {
      case 0:
      case 1: {
        // A `cookie` before status 2 is ignored: only an authorised key yields a credential.
        const next = status === 0 ? 'waiting' : 'scanned'
        if (next !== phase || recovered) emit(next)
        schedule(poll, deps.intervalMs())
        return
      }
      case -1: {
        if (refreshes >= maxRefreshes) {
          finish('expired')
          return
        }
        refreshes++
        deps.log.info('QR code expired; getting a new one', { refreshes })
        code = undefined
        emit('loading')
        void run(newCode)
        return
      }
      case 2: {
        const credential = answer.cookie?.trim()
        if (!credential) {
          throw new DataSourceError({
            kind: 'invalid-response',
            endpoint: '/connect/qr/check',
            message: 'The data source confirmed the login but sent no credential',
          })
        }
        let user: User
        try {
          user = await deps.authorise(credential)
        } catch (error) {
          if (finished) return
          finish('error', { error: toPayload(error) })
          return
        }
        finish('authorised', { user })
        return
      }
      default:
        deps.log.warn('unknown QR status; still waiting', { status: answer.status })
        schedule(poll, deps.intervalMs())
    }
  }

  emit('loading')
  void run(newCode)

  return {
    done,
    get phase() {
      return phase
    },
    get last() {
      return last
    },
    cancel: () => finish('cancelled'),
  }
}
