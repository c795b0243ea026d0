import type { UpdateState } from '@shared/ipc/contract'
import type { Logger } from '../log'
import type { Timers } from '../ports'
import { compareVersions, UpdateRefusedError } from './signed-feed'
import type { UpdateFeed, UpdateMetadata, UpdateVerifier } from './signed-feed'

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
 * The updater the glue wraps (electron-updater): downloads and verifies what the core hands it, installs.
 * It never reads the feed's metadata itself: the core reads and verifies it (signed-feed.ts).
 * Absent when the app cannot update itself (not installed, or a package the updater does not handle).
 */
export interface UpdaterPort {
  /** The feed the package names (`resources/app-update.yml`) and the metadata file this platform reads. */
  feed(): Promise<UpdateFeed>
  /** Hands over the signed metadata: the version it offers from exactly that, or null. */
  check(metadata: UpdateMetadata): Promise<{ version: string } | null>
  /**
   * Downloads the version `check` offered, in the background; resolves the downloaded files (the one to
   * install first); rejects with an `UpdateDownloadError`.
   */
  download(onProgress: (percent: number) => void): Promise<string[]>
  /** Deletes a downloaded update that failed the core's check, so that nothing installs it (not even a quit). */
  discard(files: string[]): Promise<void>
  /** Quits and installs the downloaded version, then starts it. */
  install(): void
}

export interface UpdateServiceDeps {
  updater: UpdaterPort | undefined
  /** Reads the feed's metadata and checks the project's signature on it (signed-feed.ts). */
  verifier: UpdateVerifier
  /** The running app's version: only a newer one is downloaded. */
  currentVersion: string
  /** The user's setting (Settings → Updates); read at every check. */
  enabled: () => boolean
  timers: Timers
  now: () => number
  log: Logger
  onState: (state: UpdateState) => void
}

/**
 * Keeps an installed app up to date without nagging: a check at start and every 6 hours. The feed's
 * metadata is read and its signature checked here before anything is downloaded: unsigned, wrongly
 * signed, or signed for a version older than this one (a replayed feed), the update is refused and said
 * once, in the window. A newer version is downloaded in the background (progress in the state),
 * verified by the updater against the signed sha512 and again here; once it is ready the
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

  /** `asked`: the user pressed "Check now" (it checks even with automatic updates off). */
  async function check(asked = false): Promise<void> {
    timer = undefined
    if (disposed || busy || !deps.updater || (!asked && !deps.enabled())) return
    // Downloaded and waiting for the user: nothing more to fetch.
    if (state.status === 'ready') return
    busy = true
    try {
      const unreachable = (error: unknown) => {
        failures++
        deps.log.info('the update feed could not be reached; trying again later', { error: String(error) })
        schedule(Math.min(UPDATE_RETRY_MS * 2 ** (failures - 1), UPDATE_CHECK_INTERVAL_MS), true)
      }
      const refuse = (refusal: Extract<UpdateState, { status: 'refused' }>) => {
        deps.log.warn('the update feed offered an update that was refused', { reason: refusal.reason })
        set(refusal)
        schedule(UPDATE_CHECK_INTERVAL_MS, true)
      }
      const times = () => ({ checkedAt: state.checkedAt, nextCheckAt: state.nextCheckAt })
      let metadata: UpdateMetadata
      try {
        metadata = await deps.verifier.read(await deps.updater.feed())
      } catch (error) {
        if (!(error instanceof UpdateRefusedError)) return unreachable(error)
        failures = 0
        return refuse({ status: 'refused', reason: error.reason, ...times() })
      }
      failures = 0
      const order = compareVersions(metadata.version, deps.currentVersion)
      if (order < 0) {
        // Signed, but for an older release than this one: a replay of an old feed.
        return refuse({ status: 'refused', reason: 'older', version: metadata.version, ...times() })
      }
      let offer: { version: string } | null = null
      if (order > 0) {
        try {
          offer = await deps.updater.check(metadata)
        } catch (error) {
          return unreachable(error)
        }
      }
      if (!offer || offer.version !== metadata.version) {
        deps.log.debug('no newer version')
        // A feed that is signed again clears an earlier refusal.
        if (state.status === 'refused') set({ status: 'idle', ...times() })
        schedule(UPDATE_CHECK_INTERVAL_MS, true)
        return
      }
      set({ ...state, checkedAt: deps.now() })
      const { version } = metadata
      set({ ...state, status: 'downloading', version, percent: 0 })
      try {
        const files = await deps.updater.download((percent) => {
          if (state.status === 'downloading') set({ ...state, percent: Math.max(0, Math.min(100, percent)) })
        })
        // The file to install must be one the signed metadata names, byte for byte.
        if (!files.length || !(await deps.verifier.fileMatches(files[0], metadata))) {
          await deps.updater.discard(files).catch(() => {})
          throw new UpdateDownloadError('corrupt', 'The downloaded file does not match the signed sha512')
        }
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
    /**
     * "Check now" in Settings → Updates: asks the feed at once (one check at a time), even with automatic
     * updates off (then nothing more is scheduled). Resolves the state after it.
     */
    async checkNow(): Promise<UpdateState> {
      if (!deps.updater || disposed || busy) return state
      deps.timers.clearTimeout(timer)
      await check(true)
      if (!deps.enabled()) stop()
      return state
    },
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
