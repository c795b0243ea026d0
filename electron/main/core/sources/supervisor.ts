import type { DataSourceState } from '@shared/ipc/contract'
import type { Logger } from '../log'
import type { Timers } from '../ports'

/**
 * Keeps the built-in data source running: starts it, restarts it when it dies (doubling delay, at most
 * `maxRestarts` within `windowMs`), reports every state so the renderer can show "reconnecting".
 */

export interface RunningProcess {
  url: string
  stop(): Promise<void>
}
/** Starts the process; `onExit` is called if it dies after it was ready. */
export type ProcessStarter = (onExit: (code: number) => void) => Promise<RunningProcess>

export interface SupervisorDeps {
  start: ProcessStarter
  onState: (url: string | undefined, state: DataSourceState) => void
  timers: Timers
  log: Logger
  now?: () => number
  maxRestarts?: number
  windowMs?: number
  baseDelayMs?: number
  maxDelayMs?: number
}

export function superviseDataSource(deps: SupervisorDeps) {
  const now = deps.now ?? Date.now
  const maxRestarts = deps.maxRestarts ?? 5
  const windowMs = deps.windowMs ?? 10 * 60_000
  const baseDelay = deps.baseDelayMs ?? 1000
  const maxDelay = deps.maxDelayMs ?? 30_000
  let running: RunningProcess | undefined
  let url: string | undefined
  let timer: unknown
  let stopped = false
  const restarts: number[] = []

  const launch = async (): Promise<void> => {
    if (stopped) return
    const generation = {}
    current = generation
    try {
      const child = await deps.start((code) => {
        if (stopped || current !== generation) return
        deps.log.warn('the built-in data source stopped; restarting', { code })
        running = undefined
        // Its address is forgotten at once: another process may take the port, and no request (with the
        // credential) may go there before the restarted one has proved it is ours.
        url = undefined
        retry()
      })
      // Stopped, or superseded by a relaunch while starting: this process must not stay behind.
      if (stopped || current !== generation) {
        await child.stop()
        return
      }
      running = child
      url = child.url
      deps.onState(url, 'ready')
    } catch (error) {
      if (current !== generation) return
      deps.log.error('the built-in data source failed to start', {
        error: error instanceof Error ? error.message : String(error),
      })
      retry()
    }
  }
  let current: object | undefined

  const retry = () => {
    if (stopped) return
    const t = now()
    while (restarts.length && t - restarts[0] > windowMs) restarts.shift()
    if (restarts.length >= maxRestarts) {
      deps.onState(url, 'failed')
      return
    }
    restarts.push(t)
    const delay = Math.min(baseDelay * 2 ** (restarts.length - 1), maxDelay)
    deps.onState(url, 'reconnecting')
    timer = deps.timers.setTimeout(() => {
      timer = undefined
      void launch()
    }, delay)
  }

  let relaunching: Promise<void> = Promise.resolve()
  const relaunchNow = async (): Promise<void> => {
    if (stopped) return
    if (timer !== undefined) deps.timers.clearTimeout(timer)
    timer = undefined
    const child = running
    running = undefined
    // The old child's exit, and a start still in flight, must not count: no generation matches them now.
    current = undefined
    restarts.length = 0
    deps.onState(undefined, 'starting')
    await child?.stop()
    await launch()
  }

  return {
    /** Resolves after the first start attempt (ready or scheduled to retry). */
    start: () => {
      deps.onState(undefined, 'starting')
      return launch()
    },
    /** Manual retry after `failed`. */
    restart: () => {
      if (stopped || running) return
      restarts.length = 0
      if (timer !== undefined) deps.timers.clearTimeout(timer)
      timer = undefined
      deps.onState(url, 'reconnecting')
      void launch()
    },
    /**
     * Stops the running process on purpose and starts it again, e.g. with new options (bound to the
     * network for a phone sign-in). Not a crash: the restart budget is reset and no `reconnecting` is shown
     * for the stop itself; the state goes `starting` → `ready` as on the first start.
     */
    relaunch(): Promise<void> {
      // One at a time: a second switch of the setting waits for the first relaunch to finish.
      relaunching = relaunching.then(relaunchNow).catch((error: unknown) => {
        deps.log.error('the built-in data source could not be relaunched', {
          error: error instanceof Error ? error.message : String(error),
        })
      })
      return relaunching
    },
    async stop() {
      stopped = true
      if (timer !== undefined) deps.timers.clearTimeout(timer)
      timer = undefined
      const child = running
      running = undefined
      await child?.stop()
    },
  }
}
