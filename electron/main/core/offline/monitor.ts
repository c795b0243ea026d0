import type { OfflineState } from '@shared/ipc/contract'
import { DataSourceError } from '@shared/errors'
import type { Logger } from '../log'
import type { Timers } from '../ports'

/** How often an unreachable data source is asked again, first and at most. */
export const PROBE_FIRST_MS = 5000
export const PROBE_MAX_MS = 60_000

/** An error that means "the data source cannot be reached" (not "it refused"). */
export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof DataSourceError)) return false
  if (error.kind === 'network' || error.kind === 'timeout') return true
  // A proxy or load balancer in front of a stopped server.
  return error.kind === 'http' && (error.status === 502 || error.status === 503 || error.status === 504)
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
 * Whether the active data source can be reached, learned from the calls the app makes anyway: a call that
 * cannot reach it turns offline mode on, any answer turns it off. While offline, the source is asked again
 * (5 s, doubling to 60 s), so it comes back without a restart even when nobody clicks anything.
 */
export function createOfflineMonitor(deps: OfflineMonitorDeps) {
  const now = deps.now ?? Date.now
  let state: OfflineState = { offline: false }
  let probeTimer: unknown
  let probeDelay = PROBE_FIRST_MS
  const onlineListeners = new Set<() => void>()

  const stopProbing = () => {
    if (probeTimer !== undefined) deps.timers.clearTimeout(probeTimer)
    probeTimer = undefined
  }
  const scheduleProbe = () => {
    stopProbing()
    probeTimer = deps.timers.setTimeout(() => {
      probeTimer = undefined
      deps.probe().then(
        () => online(),
        (error: unknown) => {
          if (!isUnreachable(error)) return online()
          probeDelay = Math.min(probeDelay * 2, PROBE_MAX_MS)
          if (state.offline) scheduleProbe()
        },
      )
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

  return {
    state: (): OfflineState => ({ ...state }),
    isOffline: () => state.offline,
    /** A call to the data source failed: offline if it could not reach it. */
    failed(error: unknown) {
      if (isUnreachable(error)) offline(error instanceof Error ? error.message : String(error))
    },
    /** A call got an answer (any answer, even a refusal): the source is there. */
    answered: online,
    /** The built-in data source process is down (or back). */
    setReachable(reachable: boolean, reason = 'The data source is not running') {
      if (reachable) online()
      else offline(reason)
    },
    /** Another data source became active: start as online and let its calls decide. */
    reset() {
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
