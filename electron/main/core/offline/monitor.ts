import type { OfflineState } from '@shared/ipc/contract'
import { DataSourceError } from '@shared/errors'
import type { Logger } from '../log'
import type { Timers } from '../ports'

/** How often an unreachable data source is asked again, first and at most. */
export const PROBE_FIRST_MS = 5000
export const PROBE_MAX_MS = 60_000

/**
 * An error that means "no answer came" (not "it refused"): how a probe of the source fails while it cannot
 * be reached. For an ordinary call's failure, `reachOf` says more.
 */
export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof DataSourceError)) return false
  if (error.kind === 'network' || error.kind === 'timeout') return true
  return isGatewayDown(error)
}

/** A proxy or load balancer in front of a stopped server. */
function isGatewayDown(error: DataSourceError): boolean {
  return error.kind === 'http' && (error.status === 502 || error.status === 503 || error.status === 504)
}

/**
 * What one failed call says about the data source. `down`: the connection failed (refused, no route, DNS,
 * network down) or a gateway says the server behind it is stopped: offline. `unsure`: no answer began,
 * yet a connection may have been made (a timeout before the headers, which a source that is there but
 * slow for this one request gives too), or an answer was cut off: one probe settles it. `up`: the source
 * answered, even if this answer failed (a refusal, or an answer that began and did not finish in time: the
 * request's failure, not the source's).
 */
export type Reach = 'down' | 'unsure' | 'up'

export function reachOf(error: unknown): Reach {
  if (!(error instanceof DataSourceError)) return 'up'
  // The transport gives a timeout or network failure the status once the answer's headers came.
  const answerBegan = error.status !== undefined
  if (error.kind === 'network') return answerBegan ? 'unsure' : 'down'
  if (error.kind === 'timeout') return answerBegan ? 'up' : 'unsure'
  return isGatewayDown(error) ? 'down' : 'up'
}

export interface OfflineMonitorDeps {
  /** Asks the active data source something cheap; rejects with the error when it cannot be reached. */
  probe: () => Promise<void>
  /** Called on each change (offline, or back online): the renderer says so once. */
  onChange: (state: OfflineState) => void
  timers: Timers
  now?: () => number
  log: Logger
}

/**
 * Whether the active data source can be reached, learned from the calls the app makes anyway: a call whose
 * connection fails turns offline mode on, any answer turns it off, and a call that got no answer but may
 * have reached the source (a timeout) is settled by one probe, never by itself (one slow answer is not an
 * offline source). While offline, the source is asked again (5 s, doubling to 60 s), so it comes back
 * without a restart even when nobody clicks anything.
 */
export function createOfflineMonitor(deps: OfflineMonitorDeps) {
  const now = deps.now ?? Date.now
  let state: OfflineState = { offline: false }
  let probeTimer: unknown
  let probeDelay = PROBE_FIRST_MS
  const onlineListeners = new Set<() => void>()
  /** The one probe settling doubtful failures (every doubtful failure meanwhile waits for it). */
  let confirming: Promise<boolean> | undefined
  /** Bumped when another source becomes active: a probe of the one before decides nothing. */
  let epoch = 0

  const stopProbing = () => {
    if (probeTimer !== undefined) deps.timers.clearTimeout(probeTimer)
    probeTimer = undefined
  }
  /** The probe asking while offline (a poke meanwhile waits for it rather than asking twice). */
  let asking: { epoch: number; done: Promise<void> } | undefined
  const probeNow = (): Promise<void> => {
    if (asking?.epoch === epoch) return asking.done
    const mine = epoch
    const done = deps
      .probe()
      .then(
        () => {
          if (mine === epoch) online()
        },
        (error: unknown) => {
          if (mine !== epoch) return
          if (!isUnreachable(error)) return online()
          probeDelay = Math.min(probeDelay * 2, PROBE_MAX_MS)
          if (state.offline) scheduleProbe()
        },
      )
      .finally(() => {
        if (asking?.done === done) asking = undefined
      })
    asking = { epoch: mine, done }
    return done
  }
  const scheduleProbe = () => {
    stopProbing()
    probeTimer = deps.timers.setTimeout(() => {
      probeTimer = undefined
      void probeNow()
    }, probeDelay)
  }

  const offline = (reason: string) => {
    if (state.offline) return
    state = { offline: true, since: now(), reason }
    deps.log.warn('the data source cannot be reached: offline mode', { reason })
    probeDelay = PROBE_FIRST_MS
    scheduleProbe()
    deps.onChange(state)
  }
  const online = () => {
    if (!state.offline) return
    stopProbing()
    state = { offline: false }
    deps.log.info('the data source answers again')
    deps.onChange(state)
    for (const listener of onlineListeners) listener()
  }

  /** Asks the source once whether it is there (one probe for all who ask meanwhile): true if not. */
  const confirm = (reason: string): Promise<boolean> => {
    if (state.offline) return Promise.resolve(true)
    if (confirming) return confirming
    const mine = epoch
    const probe = deps.probe().then(
      () => false,
      (error: unknown) => isUnreachable(error),
    )
    confirming = probe
      .then((unreachable) => {
        if (mine !== epoch) return state.offline
        if (unreachable) offline(reason)
        else online()
        return state.offline
      })
      .finally(() => {
        confirming = undefined
      })
    return confirming
  }

  /**
   * Whether this failure means the source cannot be reached: at once when its connection failed, after one
   * probe when the failure leaves it in doubt, never for an answer (however it failed).
   */
  const settle = (error: unknown): Promise<boolean> => {
    const reason = error instanceof Error ? error.message : String(error)
    const reach = reachOf(error)
    if (reach === 'unsure') return confirm(reason)
    if (reach === 'down') offline(reason)
    return Promise.resolve(reach === 'down')
  }

  return {
    state: (): OfflineState => ({ ...state }),
    isOffline: () => state.offline,
    /** A call to the data source failed: offline if its connection failed; probed once if in doubt. */
    failed(error: unknown) {
      void settle(error)
    },
    /** A call failed: resolves whether it was for want of the source (see `settle`). Never rejects. */
    settle,
    /** A call got an answer (any answer, even a refusal): the source is there. */
    answered: online,
    /** The built-in data source process is down (or back). */
    setReachable(reachable: boolean, reason = 'The data source is not running') {
      if (reachable) online()
      else offline(reason)
    },
    /**
     * Something says the source may be back (the window got focus, the network came back, "Try again"):
     * while offline, ask it at once instead of waiting out the back-off, and start the back-off afresh if
     * it is still away. Resolves whether it is online.
     */
    async checkNow(): Promise<boolean> {
      if (!state.offline) return true
      stopProbing()
      await probeNow()
      if (state.offline) {
        probeDelay = PROBE_FIRST_MS
        scheduleProbe()
      }
      return !state.offline
    },
    /** Another data source became active: start as online and let its calls decide. */
    reset() {
      epoch++
      stopProbing()
      if (state.offline) online()
    },
    onOnline(listener: () => void) {
      onlineListeners.add(listener)
      return () => onlineListeners.delete(listener)
    },
    dispose: stopProbing,
  }
}

export type OfflineMonitor = ReturnType<typeof createOfflineMonitor>
