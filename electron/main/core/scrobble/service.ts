import { PLACEHOLDER_SONG_ID } from '@shared/ipc/history'
import type { Listen } from '@shared/ipc/history'
import { LISTENBRAINZ_DEFAULT_SERVER } from '@shared/ipc/scrobble'
import type {
  ConnectionState,
  LastfmBeginResult,
  LastfmFinishResult,
  ListenBrainzConnectResult,
  NowPlayingTrack,
  ScrobbleServiceId,
  ScrobbleState,
} from '@shared/ipc/scrobble'
import type { Vault } from '../auth/vault'
import type { EventHub } from '../events'
import type { Logger } from '../log'
import type { KeyValueStore, Timers } from '../ports'
import { createLastfmClient, LASTFM_BATCH } from './lastfm'
import type { LastfmKeys } from './lastfm'
import { createListenBrainzClient, LISTENBRAINZ_BATCH } from './listenbrainz'
import type { SendOutcome } from './listenbrainz'
import type { ScrobbleQueue } from './queue'

/** Where the choices live in the store (no secret: tokens and session keys are in the vault). */
export const SCROBBLE_CONFIG_KEY = 'scrobble'
/** The vault's names for the ListenBrainz token and the Last.fm session key. */
export const vaultId = (service: ScrobbleServiceId) => `connection:${service}`
/** The first wait after a failed send; it doubles up to `RETRY_MAX_MS`. */
export const RETRY_BASE_MS = 30_000
const RETRY_MAX_MS = 30 * 60_000
const SERVICES: readonly ScrobbleServiceId[] = ['listenbrainz', 'lastfm']

interface ServiceConfig {
  on: boolean
  user?: string
  /** The service refused the token or session key: nothing is sent until the person connects again. */
  invalid?: boolean
  server?: string
}
type Config = Partial<Record<ScrobbleServiceId, ServiceConfig>>

export interface ScrobbleDeps {
  queue: ScrobbleQueue
  vault: Vault
  store: KeyValueStore
  events: EventHub
  timers: Timers
  log: Logger
  fetch: typeof fetch
  appVersion: string
  /** The build's Last.fm API account (none: Last.fm is not available). */
  lastfm?: LastfmKeys
  openExternal: (url: string) => Promise<void> | void
  /** A private session: nothing is queued or sent. */
  isPrivate: () => boolean
  /** The first retry wait (tests shorten it). */
  retryBaseMs?: number
}

/**
 * Scrobbling in main (docs/integrations.md): each service is off until the person connects it; a listen
 * the history kept is queued for every service turned on, then sent: `single` at once, or the backlog as
 * `import` batches (ListenBrainz) / batches of 50 (Last.fm). Failures wait and retry (doubling), a rate
 * limit waits its reset, a refused token stops that service with the listens kept. All off the playback
 * path: the renderer only reports, and sees one status per service.
 */
export function createScrobbleService(deps: ScrobbleDeps) {
  const { queue, vault, store, log } = deps
  const lb = createListenBrainzClient({ fetch: deps.fetch, client: { version: deps.appVersion } })
  const lastfm = deps.lastfm ? createLastfmClient({ fetch: deps.fetch, keys: deps.lastfm }) : undefined
  const base = deps.retryBaseMs ?? RETRY_BASE_MS
  const busy = new Set<ScrobbleServiceId>()
  const timer = new Map<ScrobbleServiceId, unknown>()
  const failures = new Map<ScrobbleServiceId, number>()
  const problem = new Map<ScrobbleServiceId, ConnectionState['problem']>()
  let lastfmToken: string | undefined
  let disposed = false

  const config = (): Config => {
    const raw = store.get<Config>(SCROBBLE_CONFIG_KEY)
    return typeof raw === 'object' && raw !== null ? raw : {}
  }
  const configure = (service: ScrobbleServiceId, value: ServiceConfig | undefined) => {
    const next = { ...config(), [service]: value }
    if (!value) delete next[service]
    store.set(SCROBBLE_CONFIG_KEY, next)
  }
  const server = () => config().listenbrainz?.server ?? LISTENBRAINZ_DEFAULT_SERVER

  function connection(service: ScrobbleServiceId): ConnectionState {
    const c = config()[service]
    const waiting = queue.open ? queue.count(service) : 0
    const extra = service === 'listenbrainz' ? { server: server() } : {}
    if (service === 'lastfm' && !lastfm) return { status: 'unavailable', waiting }
    if (service === 'lastfm' && lastfmToken) return { status: 'authorising', waiting }
    if (!c?.on) return { status: 'off', waiting, ...extra }
    const user = c.user ? { user: c.user } : {}
    if (c.invalid || !vault.has(vaultId(service))) return { status: 'invalid', waiting, ...user, ...extra }
    const why = problem.get(service)
    return { status: 'connected', waiting, ...user, ...(why ? { problem: why } : {}), ...extra }
  }
  const state = (): ScrobbleState => ({
    listenbrainz: connection('listenbrainz'),
    lastfm: connection('lastfm'),
  })
  const changed = () => {
    if (!disposed) deps.events.emit('scrobble:changed', state())
  }
  const sending = (service: ScrobbleServiceId) => connection(service).status === 'connected'

  function wait(service: ScrobbleServiceId, ms: number) {
    if (timer.has(service)) deps.timers.clearTimeout(timer.get(service))
    timer.set(
      service,
      deps.timers.setTimeout(() => {
        timer.delete(service)
        void pump(service)
      }, ms),
    )
  }

  /** The token or session key was refused: stop sending that service, keep its listens. */
  function refused(service: ScrobbleServiceId) {
    const c = config()[service]
    log.warn(`${service}: the service refused the sign-in; sending stopped, listens kept`)
    vault.clear(vaultId(service))
    configure(service, { ...(c ?? { on: true }), invalid: true })
  }

  async function send(service: ScrobbleServiceId, rows: Listen[], fresh: boolean): Promise<SendOutcome> {
    const secret = vault.get(vaultId(service))
    if (!secret) return { kind: 'unauthorized' }
    if (service === 'lastfm') return lastfm!.scrobble(secret, rows)
    return lb.listens(server(), secret, fresh ? 'single' : 'import', rows)
  }

  /** Sends what waits for `service`, a batch at a time, until it is all acknowledged or a send fails. */
  async function pump(service: ScrobbleServiceId): Promise<void> {
    if (disposed || busy.has(service) || timer.has(service) || !sending(service)) return
    const batch = queue.next(service, service === 'lastfm' ? LASTFM_BATCH : LISTENBRAINZ_BATCH)
    if (batch.length === 0) {
      if (problem.delete(service)) changed()
      failures.delete(service)
      return
    }
    busy.add(service)
    const ids = batch.map((b) => b.id)
    // A listen heard just now and never tried is `single`; a backlog goes as `import`.
    const fresh = batch.length === 1 && batch[0].attempts === 0 && !failures.has(service)
    let outcome: SendOutcome
    try {
      queue.sending(ids)
      outcome = await send(
        service,
        batch.map((b) => b.listen),
        fresh,
      )
    } finally {
      busy.delete(service)
    }
    // Disposed meanwhile (the app quit): the answer is not recorded; the rows go again next start.
    if (disposed) return
    switch (outcome.kind) {
      case 'ok':
      case 'rejected':
        if (outcome.kind === 'rejected')
          log.warn(`${service}: listens refused for good`, { why: outcome.message })
        queue.done(ids)
        failures.delete(service)
        problem.delete(service)
        changed()
        if (outcome.kind === 'ok' && outcome.waitMs) wait(service, outcome.waitMs)
        else return pump(service)
        return
      case 'unauthorized':
        refused(service)
        break
      case 'rate-limited':
        problem.set(service, 'rate-limited')
        wait(service, outcome.waitMs)
        break
      case 'unreachable': {
        const n = (failures.get(service) ?? 0) + 1
        failures.set(service, n)
        problem.set(service, 'unreachable')
        wait(service, Math.min(base * 2 ** (n - 1), RETRY_MAX_MS))
        break
      }
    }
    changed()
  }

  const pumpAll = () => SERVICES.forEach((s) => void pump(s))
  const skip = (songId: string) => deps.isPrivate() || songId === PLACEHOLDER_SONG_ID

  return {
    state,
    /** A listen the history kept (the listen rule met): queued for every service turned on, then sent. */
    listened(listen: Listen) {
      if (disposed || skip(listen.songId)) return
      const on = SERVICES.filter((s) => config()[s]?.on && (s !== 'lastfm' || lastfm))
      if (on.length === 0) return
      queue.add(on, listen)
      changed()
      pumpAll()
    },
    /** A song started: "playing now" to each connected service, once (never queued, never retried). */
    async nowPlaying(track: NowPlayingTrack) {
      if (disposed || skip(track.songId)) return
      const jobs: Array<Promise<void>> = []
      for (const service of SERVICES) {
        const secret = vault.get(vaultId(service))
        if (!sending(service) || !secret || problem.get(service) === 'rate-limited') continue
        const send =
          service === 'lastfm' ? lastfm!.nowPlaying(secret, track) : lb.playingNow(server(), secret, track)
        jobs.push(
          send.then((outcome) => {
            if (outcome.kind === 'unauthorized' && !disposed) {
              refused(service)
              changed()
            }
          }),
        )
      }
      await Promise.all(jobs)
    },
    /** Checks a ListenBrainz token (`GET /1/validate-token`) and, valid, keeps it sealed and turns sending on. */
    async connectListenBrainz(token: string, address?: string): Promise<ListenBrainzConnectResult> {
      const at = (address ?? server()).replace(/\/+$/, '')
      const answer = await lb.validate(at, token)
      if (answer === 'invalid' || answer === 'unreachable') return answer
      vault.set(vaultId('listenbrainz'), token)
      configure('listenbrainz', { on: true, user: answer.user, server: at })
      failures.delete('listenbrainz')
      problem.delete('listenbrainz')
      changed()
      void pump('listenbrainz')
      return 'connected'
    },
    /** Last.fm sign-in, step 1: a token, and its page opened in the default browser. */
    async beginLastfm(): Promise<LastfmBeginResult> {
      if (!lastfm) return 'unavailable'
      const begun = await lastfm.begin()
      if (begun === 'unreachable') return 'unreachable'
      lastfmToken = begun.token
      await deps.openExternal(begun.url)
      changed()
      return 'opened'
    },
    /** Step 2, once the person allowed Cadence: the session key, kept sealed. */
    async finishLastfm(): Promise<LastfmFinishResult> {
      if (!lastfm || !lastfmToken) return 'expired'
      const answer = await lastfm.session(lastfmToken)
      if (answer === 'not-yet' || answer === 'unreachable') return answer
      lastfmToken = undefined
      if (answer !== 'expired') {
        vault.set(vaultId('lastfm'), answer.key)
        configure('lastfm', { on: true, user: answer.user })
        failures.delete('lastfm')
        problem.delete('lastfm')
      }
      changed()
      void pump('lastfm')
      return answer === 'expired' ? 'expired' : 'connected'
    },
    /** Turns a service off and forgets its token; its waiting listens stay for a later connection. */
    disconnect(service: ScrobbleServiceId): ScrobbleState {
      vault.clear(vaultId(service))
      if (service === 'lastfm') lastfmToken = undefined
      const keep = service === 'listenbrainz' ? { server: server() } : {}
      configure(service, { on: false, ...keep })
      if (timer.has(service)) deps.timers.clearTimeout(timer.get(service))
      timer.delete(service)
      problem.delete(service)
      changed()
      return state()
    },
    /** Sends what waited from an earlier run (the app started). */
    start: pumpAll,
    /** Stops sending; an answer arriving later is not recorded (its listens go again next start). */
    dispose() {
      if (disposed) return
      disposed = true
      for (const handle of timer.values()) deps.timers.clearTimeout(handle)
      timer.clear()
      queue.close()
    },
  }
}

export type ScrobbleService = ReturnType<typeof createScrobbleService>
