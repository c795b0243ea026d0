import type { DiscordStatus, NowPlayingReport } from '@shared/ipc/discord-lrclib'
import type { Logger } from '../log'
import type { Timers } from '../ports'
import { buildActivity, sameActivity } from './activity'
import type { PresenceActivity } from './activity'

/** A song paused for this long is taken off Discord (a short pause, a seek, keeps it). */
export const PAUSE_GRACE_MS = 4_000
/** Waits before asking for Discord again, one per failed try, the last repeated (bounded: 5 minutes). */
export const RECONNECT_DELAYS_MS = [2_000, 10_000, 30_000, 60_000, 120_000, 300_000] as const

/** One connection to the Discord client (the library, in `./rpc-client`; a fake in tests). */
export interface DiscordConnection {
  setActivity(activity: PresenceActivity): Promise<void>
  clearActivity(): Promise<void>
  close(): Promise<void>
}
/** Opens a connection with the application id; `onClose` runs when Discord ends it. Rejects when Discord is not running. */
export type DiscordConnect = (appId: string, onClose: () => void) => Promise<DiscordConnection>

/**
 * Rich Presence's decisions, with the Discord client injected: what to show (`buildActivity`), when to
 * clear it (after a pause's grace, a private session, the setting turned off), and when to try Discord
 * again (a bounded backoff; not running is a status, never an error). Operations on the connection run
 * one at a time, in order.
 */
export function createPresence(deps: {
  connect: DiscordConnect
  appId: string
  timers: Timers
  now: () => number
  log: Logger
  onStatus: (status: DiscordStatus) => void
}) {
  const { timers } = deps
  let enabled = false
  let privateOn = false
  let showing: PresenceActivity | null = null
  let conn: DiscordConnection | undefined
  let connecting = false
  let attempt = 0
  let retry: unknown
  let grace: unknown
  /** What Discord shows from us: null nothing; undefined not known (no connection). */
  let sent: PresenceActivity | null | undefined
  let chain: Promise<void> = Promise.resolve()
  let lastStatus: DiscordStatus | undefined
  let disposed = false

  const status = (): DiscordStatus =>
    !enabled ? 'off' : privateOn ? 'paused' : conn ? 'connected' : connecting ? 'connecting' : 'not-running'
  const emit = () => {
    const now = status()
    if (now !== lastStatus) deps.onStatus((lastStatus = now))
  }

  function scheduleRetry() {
    if (retry !== undefined || !enabled || disposed) return
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!
    attempt++
    retry = timers.setTimeout(() => {
      retry = undefined
      ensureConnection()
    }, delay)
  }

  function ensureConnection() {
    if (!enabled || conn || connecting || retry !== undefined || disposed) return
    connecting = true
    emit()
    let mine: DiscordConnection | undefined
    deps
      .connect(deps.appId, () => {
        if (!mine || conn !== mine) return
        deps.log.info('discord: the client closed the connection')
        conn = undefined
        sent = undefined
        scheduleRetry()
        emit()
      })
      .then(
        (connection) => {
          connecting = false
          if (!enabled || disposed) {
            void connection.close().catch(() => undefined)
            emit()
            return
          }
          mine = connection
          conn = connection
          attempt = 0
          sent = null
          deps.log.info('discord: connected')
          emit()
          sync()
        },
        (error: unknown) => {
          connecting = false
          deps.log.debug('discord: not running', { error: String((error as Error)?.message ?? error) })
          scheduleRetry()
          emit()
        },
      )
  }

  /** Brings Discord in line with what should show (queued behind any operation under way). */
  function sync() {
    chain = chain.then(step, step)
  }
  async function step() {
    const c = conn
    if (!c) return
    const want = enabled && !privateOn ? showing : null
    if (sent !== undefined && sameActivity(want, sent)) return
    try {
      if (want) await c.setActivity(want)
      else await c.clearActivity()
      if (conn === c) sent = want
    } catch (error) {
      deps.log.info('discord: an update failed', { error: String((error as Error)?.message ?? error) })
    }
  }

  async function disconnect() {
    const c = conn
    conn = undefined
    sent = undefined
    if (retry !== undefined) timers.clearTimeout(retry)
    retry = undefined
    attempt = 0
    if (c) {
      await c.clearActivity().catch(() => undefined)
      await c.close().catch(() => undefined)
    }
  }

  return {
    status,
    /** The setting: on connects (and keeps trying), off clears the activity and disconnects. */
    setEnabled(on: boolean) {
      if (on === enabled) return
      enabled = on
      if (on) ensureConnection()
      else chain = chain.then(disconnect, disconnect)
      emit()
    },
    /** A private session: nothing shows until it ends. */
    setPrivate(on: boolean) {
      if (on === privateOn) return
      privateOn = on
      emit()
      sync()
    },
    /** What the renderer reports playing. */
    report(report: NowPlayingReport) {
      const activity = buildActivity(report, deps.now())
      if (activity) {
        if (grace !== undefined) timers.clearTimeout(grace)
        grace = undefined
        showing = activity
      } else if (!report.song) {
        showing = null
      } else if (showing && grace === undefined) {
        grace = timers.setTimeout(() => {
          grace = undefined
          showing = null
          sync()
        }, PAUSE_GRACE_MS)
        return
      }
      sync()
    },
    /** Resolves once every queued operation has run (tests). */
    settled: () => chain,
    async dispose() {
      disposed = true
      if (grace !== undefined) timers.clearTimeout(grace)
      enabled = false
      chain = chain.then(disconnect, disconnect)
      await chain
    },
  }
}
