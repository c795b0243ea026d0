import type { UpdateState } from '@shared/ipc/contract'
import type { Logger } from '../log'
import type { Timers } from '../ports'

/** How often an installed app asks its update feed. */
export const UPDATE_CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000
/** After a check that could not reach the feed (offline, feed down): first retry, doubling up to the interval. */
export const UPDATE_RETRY_MS = 15 * 60 * 1000

/** Why a download was not kept: the bytes did not match the feed's sha512, or the feed could not be reached. */
export class UpdateDownloadError extends Error {
  constructor(
    readonly reason: 'corrupt' | 'unreachable',
    message: string,
  ) {
    super(message)
    this.name = 'UpdateDownloadError'
  }
}

/**
 * The updater the glue wraps (electron-updater): asks the feed, downloads and verifies, installs.
 * Absent when the app cannot update itself (not installed, or a package the updater does not handle).
 */
export interface UpdaterPort {
  /** The newer version the feed offers, or null (the same or an older one). Rejects when unreachable. */
  check(): Promise<{ version: string } | null>
  /** Downloads the version `check` offered, in the background; rejects with an `UpdateDownloadError`. */
  download(onProgress: (percent: number) => void): Promise<void>
  /** Quits and installs the downloaded version, then starts it. */
  install(): void
}

export interface UpdateServiceDeps {
  updater: UpdaterPort | undefined
  /** The user's setting (Settings → Updates); read at every check. */
  enabled: () => boolean
  timers: Timers
  now: () => number
  log: Logger
  onState: (state: UpdateState) => void
}

/**
 * Keeps an installed app up to date without nagging: a check at start and every 6 hours; an update is
 * downloaded in the background (progress in the state) and verified by the updater; once it is ready the
 * window and the tray offer "Restart to update" and nothing more. A feed that cannot be reached (offline,
 * down) is retried later, silently; a download whose checksum is wrong is refused and said once, in the
 * window, and not tried again before the next regular check. The setting off stops checking at once.
 */
export function createUpdateService(deps: UpdateServiceDeps) {
  let state: UpdateState = { status: 'idle', checkedAt: null, nextCheckAt: null }
  let timer: unknown
  let failures = 0
  let busy = false
  let disposed = false

  const set = (next: UpdateState) => {
    state = next
    deps.onState(state)
  }
  /** The next check in `ms`; `checked`: this check is done now (one clock reading for both times). */
  const schedule = (ms: number, checked = false) => {
    deps.timers.clearTimeout(timer)
    timer = deps.timers.setTimeout(() => void check(), ms)
    const at = deps.now()
    set({ ...state, ...(checked ? { checkedAt: at } : {}), nextCheckAt: at + ms })
  }
  const stop = () => {
    deps.timers.clearTimeout(timer)
    timer = undefined
    if (state.nextCheckAt !== null) set({ ...state, nextCheckAt: null })
  }

  async function check(): Promise<void> {
    timer = undefined
    if (disposed || busy || !deps.updater || !deps.enabled()) return
    // Downloaded and waiting for the user: nothing more to fetch.
    if (state.status === 'ready') return
    busy = true
    try {
      let offer: { version: string } | null
      try {
        offer = await deps.updater.check()
      } catch (error) {
        failures++
        deps.log.info('the update feed could not be reached; trying again later', { error: String(error) })
        schedule(Math.min(UPDATE_RETRY_MS * 2 ** (failures - 1), UPDATE_CHECK_INTERVAL_MS), true)
        return
      }
      failures = 0
      if (!offer) {
        deps.log.debug('no newer version')
        schedule(UPDATE_CHECK_INTERVAL_MS, true)
        return
      }
      set({ ...state, checkedAt: deps.now() })
      const { version } = offer
      set({ ...state, status: 'downloading', version, percent: 0 })
      try {
        await deps.updater.download((percent) => {
          if (state.status === 'downloading') set({ ...state, percent: Math.max(0, Math.min(100, percent)) })
        })
      } catch (error) {
        const reason = error instanceof UpdateDownloadError ? error.reason : 'unreachable'
        if (reason === 'corrupt') {
          deps.log.warn('the downloaded update failed verification and was deleted', { version })
          set({ ...state, status: 'failed', version, reason: 'corrupt' })
          schedule(UPDATE_CHECK_INTERVAL_MS)
        } else {
          failures++
          deps.log.info('the update download was interrupted; trying again later', { error: String(error) })
          set({ status: 'idle', checkedAt: state.checkedAt, nextCheckAt: state.nextCheckAt })
          schedule(Math.min(UPDATE_RETRY_MS * 2 ** (failures - 1), UPDATE_CHECK_INTERVAL_MS))
        }
        return
      }
      deps.log.info('an update is ready', { version })
      set({ status: 'ready', version, checkedAt: state.checkedAt, nextCheckAt: null })
    } finally {
      busy = false
    }
  }

  return {
    /** At the app's start: the first check (when the setting allows and the app can update itself). */
    start(): void {
      if (deps.updater && deps.enabled()) void check()
    },
    /** The setting changed: off stops the checks, on checks now. */
    settingChanged(): void {
      if (!deps.updater || disposed) return
      if (!deps.enabled()) stop()
      else if (timer === undefined && !busy) void check()
    },
    state: (): UpdateState => state,
    /** "Restart to update": only once an update is downloaded and verified. */
    install(): boolean {
      if (state.status !== 'ready' || !deps.updater) return false
      deps.updater.install()
      return true
    },
    /** Whether this app can update itself at all (an installed package the updater handles). */
    available: () => deps.updater !== undefined,
    dispose(): void {
      disposed = true
      deps.timers.clearTimeout(timer)
    },
  }
}

export type UpdateService = ReturnType<typeof createUpdateService>
