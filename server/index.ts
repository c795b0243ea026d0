import { hostname } from 'node:os'
import { getMeta } from './db/meta'
import { openDatabase } from './db/open'
import { ensureOwner } from './db/users'
import { createCatalog } from './catalog'
import { Credentials, MAX_TOKEN_LENGTH, QrKeys } from './auth'
import { AudioStore } from './audio/store'
import { MediaSigner, loadSecret } from './signing'
import { generateDemo, removeDemo } from './demo'
import { runLibraryImport } from './library/run'
import { watchLibrary, type LibraryScans, type LiveLibrary } from './library/live'
import type { LibraryReport } from '@shared/ipc/music-folders'
import { buildApp, type Timeouts } from './app'
import { hostAllowList } from './hosts'
import { secureDataDir } from './data-dir'
import { AttemptLimiter, OwnerProof } from './owner'
import type { Ctx } from './context'

export interface DataSourceOptions {
  dataDir: string
  /** Default 127.0.0.1. */
  host?: string
  /** 0 picks a free port. Default 0. */
  port?: number
  /** Demo songs to generate when the catalogue has none: default 300 (0 when `library` is given). */
  demo?: number
  /** Takes the demo catalogue out of the data dir on this start (`--no-demo`); `demo` brings it back later. */
  removeDemo?: boolean
  /** Music folders to import (rescanned on every start; only changed files are read). */
  library?: string | string[]
  /**
   * Import the folders after the server listens, so start-up never waits for it (the app); without it
   * the start waits for the import (the command line, tests).
   */
  libraryInBackground?: boolean
  /** The import's progress and result (utility-entry.ts posts them to the app). */
  onLibrary?: (event: LibraryReport) => void
  /**
   * Watch the folders after the first import and apply what changes (library/live.ts): the quiet time in
   * ms after a change (default 300), or false (default) not to watch.
   */
  watchLibrary?: number | false
  /** Base URL clients should use for links (QR page, media, covers), e.g. http://192.168.1.20:4000. */
  publicUrl?: string
  /** Lifetime of signed media URLs, default 6 h. */
  mediaUrlTtlSeconds?: number
  /** Lifetime of login credentials, default 30 days. */
  tokenTtlSeconds?: number
  /** Name of the owner user that the phone page signs in as. Default "Owner". */
  ownerName?: string
  /**
   * The owner passphrase that a phone sign-in must give (or a phone it remembered). Replaces the stored one;
   * without it the stored one is kept, and on the first start one is made (see `generatedPassphrase`).
   */
  ownerPassphrase?: string
  /**
   * Revoke every credential and forget every remembered phone on this start (`--sign-out-everywhere`); a
   * changed `ownerPassphrase` does the same by itself.
   */
  signOutEverywhere?: boolean
  /** Size quota of the synthesised demo-audio cache in bytes (default 512 MB); the least recently used go. */
  audioCacheBytes?: number
  /**
   * Audio made for requests without a login, in all per start (default 48 MB); past it they are asked to
   * sign in for songs not cached yet.
   */
  anonymousAudioBytes?: number
  /** Further host names this server answers to (beside loopback, its addresses and `publicUrl`'s host). */
  publicNames?: string[]
  /**
   * Reverse proxies whose `X-Forwarded-For` is believed (`--trust-proxy`): addresses or CIDR ranges. Requests
   * through them are limited by the client address the proxy reports; from anyone else the header is ignored.
   * Default none.
   */
  trustProxy?: string[]
  /** How long a client may take to send headers, a request, or nothing at all (`DEFAULT_TIMEOUTS`). */
  timeouts?: Partial<Timeouts>
  /** Open connections per client address (`MAX_CONNECTIONS_PER_CLIENT`). */
  maxConnectionsPerClient?: number
  /** Fastify request logging. Default off. */
  logger?: boolean
  /**
   * The secret of the desktop app that started this process (`CADENCE_INSTANCE_NONCE`): `/cadence/instance`
   * signs the app's challenges with it, so the app can tell its own process from whatever else holds the
   * address (server/instance.ts).
   */
  instanceNonce?: string
  /**
   * Nothing is listed, searched or streamed without a login (`--require-login`): what the desktop app asks
   * for when it opens its built-in library to the network. Open still: the sign-in (`/connect/…`, the
   * phone page), covers, `/`, `/health` and `/cadence/instance`. Default off (the spec lets anyone browse).
   */
  requireLogin?: boolean
  /**
   * Called at the end of each full import of the music folders to give back the memory it used
   * (`reclaimMemory` in reclaim.ts: the app's and the command line's process); default none.
   */
  reclaimMemory?: () => void
}

export interface DataSourceHandle {
  /** http://host:port, no trailing slash. */
  url: string
  close(): Promise<void>
  /** Test hook: every credential becomes invalid. */
  expireCredentials(): void
  /** Stops an import running in the background (what was read is kept). */
  cancelLibraryImport(): void
  /** What the folder watch has done since the first import (library/live.ts). */
  libraryScans(): LibraryScans
  /** Settles when the import of this start has finished (at once without folders). */
  libraryImported: Promise<void>
  /** The owner passphrase made on this start (first start without one given): show it once, then forget it. */
  generatedPassphrase?: string
}

const UNSPECIFIED_HOSTS = new Set(['0.0.0.0', '::', '[::]', ''])

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
}

/** How long `close()` lets requests in flight finish before it drops every connection. */
const CLOSE_GRACE_MS = 2000

export async function startDataSource(opts: DataSourceOptions): Promise<DataSourceHandle> {
  const host = opts.host ?? '127.0.0.1'
  const log = (message: string) => {
    if (opts.logger) process.stderr.write(`[cadence-server] ${message}\n`)
  }
  const warn = (message: string) => process.stderr.write(`[cadence-server] ${message}\n`)
  const { notPrivate } = secureDataDir(opts.dataDir)
  if (notPrivate.length > 0) {
    warn(
      `could not make ${notPrivate.length} path(s) in the data dir private to this user, e.g. ${notPrivate[0]}`,
    )
  }
  const db = openDatabase(opts.dataDir)
  let ownerProof: OwnerProof | undefined
  try {
    const secret = loadSecret(opts.dataDir)
    const owner = ensureOwner(db, opts.ownerName)
    const demo = opts.demo ?? (opts.library ? 0 : 300)
    const existingDemo = getMeta(db, 'demo_songs')
    if (opts.removeDemo) {
      if (existingDemo !== undefined) log(`removed the demo catalogue (${removeDemo(db).songs} songs)`)
    } else if (
      existingDemo !== undefined &&
      opts.demo !== undefined &&
      Number(existingDemo) !== Math.floor(opts.demo)
    ) {
      warn(
        `the data dir already holds a demo catalogue of ${existingDemo} songs; keeping it ` +
          `(use a new data dir to generate ${opts.demo}).`,
      )
    } else if (demo > 0) generateDemo(db, Math.floor(demo), owner.id)
    const libraryRoots = [opts.library ?? []].flat()
    // Each import has its own controller: Cancel stops the one running; closing stops any and the watch.
    let closing = false
    let runAbort: AbortController | undefined
    const importNow = () =>
      runLibraryImport({
        db,
        folders: libraryRoots,
        signal: (runAbort = new AbortController()).signal,
        report: opts.onLibrary,
        warn,
        log,
        reclaim: opts.reclaimMemory,
      }).then(() => undefined)
    let libraryImported: Promise<void> = Promise.resolve()
    if (libraryRoots.length > 0 && !opts.libraryInBackground) await importNow()
    // After the first import, changes are applied as they are seen (library/live.ts).
    let live: LiveLibrary | undefined
    const watchAfter = (first: Promise<void>) =>
      opts.watchLibrary === undefined || opts.watchLibrary === false || libraryRoots.length === 0
        ? first
        : first.then(() => {
            if (closing) return
            live = watchLibrary({
              db,
              folders: libraryRoots,
              importNow,
              report: opts.onLibrary,
              warn,
              log,
              watch: { debounceMs: opts.watchLibrary || 300 },
            })
          })
    db.exec('PRAGMA optimize')

    const credentials = new Credentials(db, opts.tokenTtlSeconds ?? 30 * 86400)
    // A new passphrase signs every device out (and forgets the remembered phones).
    const { proof, generated } = OwnerProof.open(db, opts.ownerPassphrase, () => credentials.expireAll())
    ownerProof = proof
    if (opts.signOutEverywhere) {
      credentials.expireAll()
      proof.forgetDevices()
      log('signed every device out: every credential revoked, every remembered phone forgotten')
    }
    const qr = new QrKeys()
    let serverUrl = ''
    const publicUrl = opts.publicUrl?.replace(/\/+$/, '')
    const ctx: Ctx = {
      db,
      catalog: createCatalog(db),
      credentials,
      qr,
      audio: new AudioStore(db, opts.dataDir, opts.audioCacheBytes, undefined, opts.anonymousAudioBytes),
      signer: new MediaSigner(secret, opts.mediaUrlTtlSeconds ?? 6 * 3600),
      owner,
      ownerProof: proof,
      attempts: new AttemptLimiter(),
      allowedHost: hostAllowList({ bindHost: host, publicUrl, publicNames: opts.publicNames }),
      startedAt: Date.now(),
      instanceNonce: opts.instanceNonce || undefined,
      requireLogin: opts.requireLogin ?? false,
      warn,
      serverName: publicUrl ?? `Cadence on ${hostname()}`,
      baseUrl: (req) => {
        if (publicUrl) return publicUrl
        if (UNSPECIFIED_HOSTS.has(host)) {
          const h = req.headers.host
          if (typeof h === 'string' && /^[A-Za-z0-9.\-[\]:]{1,255}$/.test(h)) return `http://${h}`
        }
        return serverUrl
      },
      viewer: (req) => {
        const token = req.headers.token
        if (token === undefined) return null
        return credentials.verify(Array.isArray(token) ? token[0] : token)
      },
      log,
    }
    ctx.audio.setLibraryRoots(libraryRoots)
    const app = await buildApp(ctx, {
      logger: opts.logger ?? false,
      trustProxy: opts.trustProxy ?? [],
      timeouts: opts.timeouts,
      maxConnectionsPerClient: opts.maxConnectionsPerClient,
    })
    await app.listen({ host, port: opts.port ?? 0 })
    const address = app.server.address()
    const port = typeof address === 'object' && address ? address.port : (opts.port ?? 0)
    serverUrl = `http://${urlHost(host)}:${port}`
    // In the background: requests are served between its batches.
    if (libraryRoots.length > 0 && opts.libraryInBackground) libraryImported = watchAfter(importNow())
    else libraryImported = watchAfter(Promise.resolve())
    let closed = false
    return {
      url: serverUrl,
      async close() {
        if (closed) return
        closed = true
        closing = true
        runAbort?.abort()
        await libraryImported
        await live?.close()
        // Requests in flight may finish; a connection still open after that (a client that went away
        // without the server noticing, seen under load) must not keep the data source from stopping.
        const force = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS)
        await app.close()
        clearTimeout(force)
        await proof.ready()
        await ctx.audio.close()
        db.close()
      },
      expireCredentials() {
        credentials.expireAll()
      },
      cancelLibraryImport: () => runAbort?.abort(),
      libraryScans: () => ({ ...(live?.scans ?? { full: 0, changes: 0, statted: 0 }) }),
      libraryImported,
      generatedPassphrase: generated,
    }
  } catch (err) {
    await ownerProof?.ready()
    db.close()
    throw err
  }
}

export { MAX_TOKEN_LENGTH }
