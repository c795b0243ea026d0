import type { PhoneAccess } from '@shared/ipc/contract'
import type { Settings } from '@shared/settings'
import type { Vault } from '../auth/vault'
import type { Logger } from '../log'
import type { KeyValueStore } from '../ports'
import { makeInstanceNonce } from './instance'
import type { ProcessStarter, RunningProcess } from './supervisor'
import type { LibraryReport } from '@shared/ipc/music-folders'

/**
 * Where the built-in data source listens and with which owner passphrase (docs/security.md).
 *
 * - "Let my phone sign in" off (the default): loopback only, with a passphrase made for this run and kept
 *   in memory; the app signs itself in with it and nobody else needs it.
 * - On: bound to every interface (0.0.0.0) so another device can reach it, with a stable passphrase the
 *   user is shown, kept in the credential vault (encrypted, under the same rules as sign-ins) and never in
 *   the plain settings. The port of the last network start is tried again, so an address the user wrote
 *   down keeps working; when it is taken the next start takes any free port.
 */

/** The vault entry of the stable passphrase (not a data source id, so never confused with a sign-in). */
export const PHONE_PASSPHRASE_ID = 'builtin#owner-passphrase'
/** The port of the last network start (not a secret). */
export const PHONE_PORT_KEY = 'builtinNetworkPort'

export interface BuiltinLaunch {
  host: '127.0.0.1' | '0.0.0.0'
  port: number
  passphrase: string
  /** This start's secret: the process proves itself with it before it gets a credential (./instance.ts). */
  nonce: string
  /** Nothing listed or streamed without a login (`--require-login`): set whenever it is open to the network. */
  requireLogin: boolean
  /** The music folders it imports (Settings → Music on this computer, library/folders.ts). */
  library?: string[]
  /** Whether it shows its demo catalogue (false: taken out of its data dir, `--no-demo`). */
  demo?: boolean
}

/** Starts the built-in data source with these options; `url` is as the server reports it. */
export type BuiltinSpawner = (
  launch: BuiltinLaunch,
  onExit: (code: number) => void,
  onLibrary?: (report: LibraryReport) => void,
) => Promise<RunningProcess & { send?(message: unknown): void }>

export function createPhoneAccess(deps: {
  settings: () => Settings
  vault: Vault
  store: KeyValueStore
  /** A new passphrase a person can type on a phone. */
  makePassphrase: () => string
  /** This machine's IPv4 addresses other devices can reach (no loopback). */
  networkAddresses: () => string[]
  /**
   * Whether the process at `url` is the one started with `nonce` (`isOurInstance`): asked before the
   * address is reported, so no credential goes to whatever else answers there.
   */
  isOurs?: (url: string, nonce: string) => Promise<boolean>
  log: Logger
}) {
  const runPassphrase = deps.makePassphrase()
  /** The options of the start in progress or the running process. */
  let current: BuiltinLaunch | undefined
  let port: number | undefined

  const stablePassphrase = (): string => {
    const held = deps.vault.get(PHONE_PASSPHRASE_ID)
    if (held) return held
    const made = deps.makePassphrase()
    deps.vault.set(PHONE_PASSPHRASE_ID, made)
    deps.log.info('made the owner passphrase for phone sign-in', {
      kept: deps.vault.storage(PHONE_PASSPHRASE_ID).mode,
    })
    return made
  }

  const enabled = () => deps.settings().phoneSignIn

  /** The options for the next start, read at each start (a setting change takes effect on relaunch). */
  const next = (): BuiltinLaunch => {
    const nonce = makeInstanceNonce()
    if (!enabled())
      return { host: '127.0.0.1', port: 0, passphrase: runPassphrase, nonce, requireLogin: false }
    const remembered = deps.store.get<unknown>(PHONE_PORT_KEY)
    const wanted =
      typeof remembered === 'number' && Number.isInteger(remembered) && remembered > 0 && remembered < 65536
        ? remembered
        : 0
    return { host: '0.0.0.0', port: wanted, passphrase: stablePassphrase(), nonce, requireLogin: true }
  }

  return {
    /**
     * Wraps the glue's spawner for the supervisor: picks the options, reports the server's address on
     * loopback (what the app itself uses), remembers a network start's port, and forgets a remembered
     * port that failed so the retry takes a free one.
     */
    starter(spawn: BuiltinSpawner): ProcessStarter {
      return async (onExit) => {
        const launch = next()
        current = launch
        let child: RunningProcess
        try {
          child = await spawn(launch, onExit)
        } catch (error) {
          if (launch.host === '0.0.0.0' && launch.port !== 0) deps.store.delete(PHONE_PORT_KEY)
          throw error
        }
        const url = new URL(child.url)
        const loopback = `http://127.0.0.1:${url.port}`
        if (deps.isOurs && !(await deps.isOurs(loopback, launch.nonce))) {
          // Something else answers where our process said it listens: no credential goes there.
          deps.log.error('the built-in data source could not prove it is the process this app started', {
            port: url.port,
          })
          await child.stop().catch(() => undefined)
          throw new Error('The built-in data source could not prove it is the one this app started')
        }
        port = Number(url.port)
        if (launch.host === '0.0.0.0') deps.store.set(PHONE_PORT_KEY, port)
        return { url: loopback, stop: () => child.stop() }
      }
    },
    /** The passphrase the running built-in source was started with (the app signs itself in with it). */
    passphrase: (): string => current?.passphrase ?? runPassphrase,
    /** Whether a relaunch is needed for the data source to match the setting. */
    needsRelaunch: (): boolean => current !== undefined && (current.host === '0.0.0.0') !== enabled(),
    /** Whether the running (or starting) process is the one open to the network. */
    onNetwork: (): boolean => current?.host === '0.0.0.0',
    /**
     * Replaces the stable passphrase (the old one is gone from the vault); the next network start uses it,
     * and the server, seeing a different passphrase, forgets remembered phones and revokes credentials.
     */
    renew(): void {
      deps.vault.set(PHONE_PASSPHRASE_ID, deps.makePassphrase())
      deps.log.info('made a new owner passphrase for phone sign-in', {
        kept: deps.vault.storage(PHONE_PASSPHRASE_ID).mode,
      })
    },
    /**
     * What the Settings view shows: the addresses to open and, only while on and only when asked for "Show"
     * (`show`), the passphrase.
     */
    info(ready: boolean, show = false): PhoneAccess {
      const on = enabled()
      const listening = ready && current?.host === '0.0.0.0' && on && port !== undefined
      const base: PhoneAccess = {
        enabled: on,
        listening,
        addresses: listening ? deps.networkAddresses().map((ip) => `http://${ip}:${port}`) : [],
        kept: deps.vault.storage(PHONE_PASSPHRASE_ID).mode,
      }
      return on && show ? { ...base, passphrase: stablePassphrase() } : base
    },
  }
}

export type PhoneAccessService = ReturnType<typeof createPhoneAccess>

/** A passphrase a person can read out and type on a phone: four groups of four, about 80 bits. */
export function makePhonePassphrase(randomInt: (max: number) => number): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789'
  const group = () => Array.from({ length: 4 }, () => alphabet[randomInt(alphabet.length)]).join('')
  return [group(), group(), group(), group()].join('-')
}

/** What `os.networkInterfaces()` answers, as far as it matters here. */
export type NetworkInterfaces = Record<
  string,
  Array<{ address: string; family: string | number; internal: boolean }> | undefined
>

/**
 * The IPv4 addresses another device on the network can open: not loopback, not link-local (169.254/16,
 * which a phone cannot route to), each once.
 */
export function reachableAddresses(interfaces: NetworkInterfaces): string[] {
  const out = new Set<string>()
  for (const list of Object.values(interfaces)) {
    for (const entry of list ?? []) {
      const v4 = entry.family === 'IPv4' || entry.family === 4
      if (!v4 || entry.internal || entry.address.startsWith('127.') || entry.address.startsWith('169.254.'))
        continue
      out.add(entry.address)
    }
  }
  return [...out]
}
