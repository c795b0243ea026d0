import type { DiscordDeps } from './discord'
import type { LrclibOptions } from './lrclib'
import type {
  AppInfo,
  AuthState,
  DataSourceState,
  PlayerCommandName,
  PlayerState,
} from '@shared/ipc/contract'
import type { ApiClient } from './api/client'
import type { AuthService } from './auth/service'
import type { EventHub } from './events'
import type { Handlers, IpcRouter } from './ipc/router'
import type { LoggerFactory } from './log'
import type { createListen, ListenPorts } from './listen'
import type { MediaHandler } from './media'
import type { FreeSpaceProbe, MediaLimits } from './media-cache'
import type { LookupAll } from './net'
import type { createOffline } from './offline'
import type { ConfirmPort, KeyValueStore, SecretCipher, Timers, WindowsPort } from './ports'
import type { SettingsService } from './settings/service'
import type { BuiltinSpawner } from './sources/phone-access'
import type { SourceRegistry } from './sources/registry'
import type { HistoryService } from './history'
import type { createShortcuts, ShortcutPort } from './shortcuts'
import type { LastfmKeys, ScrobbleService } from './scrobble'
import type { createUpdateService, UpdaterPort } from './updates'

/**
 * The main process without Electron: every decision lives here, with its dependencies injected.
 * The glue (electron/main/index.ts) and the end-to-end harness (test/e2e/harness.ts) both build it.
 */
export interface CoreDeps {
  /** The media cache and downloads folder (the app: `<userData>/media-cache`; default: under the OS temp dir). */
  mediaDir?: string
  /** The listening history's SQLite file (the app: `<userData>/history.sqlite`; default: in memory). */
  historyPath?: string
  /**
   * The byte cap, free-space reserve and deadlines of every song file main fetches from a data source
   * (default `DEFAULT_MEDIA_LIMITS`; tests shorten them).
   */
  mediaLimits?: Partial<MediaLimits>
  /** Free bytes on the disk holding a folder (default: `fs.statfs`). */
  freeSpace?: FreeSpaceProbe
  store: KeyValueStore
  cipher: SecretCipher
  /** Only our own renderer may call main. */
  isTrustedSender: (senderUrl: string) => boolean
  appInfo: AppInfo
  /**
   * URL of the built-in data source when it is already running (tests). The app starts it after the
   * core and reports it with `setBuiltin(url, state)`.
   */
  builtinSourceUrl?: string
  fetch?: typeof fetch
  /**
   * Resolves a host name to every address (default: node:dns `lookup` with `all: true`): what a data
   * source points media and covers at is checked on these addresses, and only they are connected to.
   */
  lookup?: LookupAll
  log?: LoggerFactory
  timers?: Timers
  /** Opens and closes the QR login window. */
  windows?: WindowsPort
  /**
   * Asks the person in a dialog main shows (the glue's `dialog.showMessageBox`): turning on a setting that
   * weakens protection over IPC waits for it. Default: every question answered no.
   */
  confirm?: ConfirmPort
  /** Opens an http(s) address in the system browser (only the running QR login's page, `auth:open-qr-page`). */
  openExternal?: (url: string) => Promise<void> | void
  /** Puts text on the system clipboard. */
  copyText?: (text: string) => void
  /** The renderer reported what is playing (the tray shows it). */
  onPlayerState?: (state: PlayerState) => void
  /** Renders a QR code as a PNG data URI (default: qrcode's toDataURL). */
  renderQr?: (text: string) => Promise<string>
  /** Sign in to the built-in data source without a phone (default true). */
  autoSignInBuiltin?: boolean
  /**
   * The owner passphrase of a built-in data source that is already running (tests with
   * `builtinSourceUrl`): main signs itself in with it, as the owner's phone would. When the core starts
   * the data source itself (`spawnBuiltin`), it picks the passphrase (sources/phone-access.ts).
   */
  builtinPassphrase?: string
  /**
   * Starts the built-in data source process (the glue's utilityProcess). Given, the core supervises it:
   * `builtin.start()`, restarts after crashes, and a relaunch when "Let my phone sign in" changes.
   */
  spawnBuiltin?: BuiltinSpawner
  /** The system folder picker, for Settings → Music on this computer (the glue's `dialog.showOpenDialog`). */
  pickFolder?: () => Promise<string | undefined>
  /** This machine's IPv4 addresses another device can reach (shown for phone sign-in). */
  networkAddresses?: () => string[]
  /** Random integers in [0, max), for passphrases (default: Math.random; the app passes crypto's). */
  randomInt?: (max: number) => number
  /** Ask an added address whether it is a data source (default true). */
  probeSources?: boolean
  /** API client timeout (default 10 s). */
  timeoutMs?: number
  /** Desktop lyrics window, mini player, notifications (none: those features do nothing). */
  listen?: ListenPorts
  /** Electron's `globalShortcut` (none: no global shortcut is registered, each reported `taken`). */
  shortcuts?: ShortcutPort
  /** The installed app's updater (electron-updater); absent where the app cannot update itself. */
  updater?: UpdaterPort
  /**
   * Tests only: the key the update metadata must be signed with, instead of the project's
   * (updates/public-key.ts). The app never sets it; nothing else can change the key.
   */
  updatePublicKey?: string
  /** Epoch milliseconds (default Date.now). */
  now?: () => number
  /** The listens waiting for ListenBrainz and Last.fm (the app: `<userData>/scrobble-queue.sqlite`; default: in memory). */
  scrobblePath?: string
  /** The build's Last.fm API key and secret (none: Last.fm is "not available in this build"); tests add a root. */
  lastfm?: LastfmKeys
  /** The first wait before a failed scrobble is sent again (default 30 s; tests shorten it). */
  scrobbleRetryMs?: number
  /** Discord Rich Presence: the application id (built in) and, in tests, the connection to the fake. */
  discord?: DiscordDeps
  /** LRCLIB: where its lyrics are kept (the app: `<userData>/lrclib`) and, in tests, the fake's address. */
  lrclib?: LrclibOptions
}

/**
 * What `createCore` gives its builders. The glue (electron/main/index.ts) uses `router`, `events`,
 * `settings`, `listen`, `builtin`, `playerCommand`, `beforeQuit`, `loginWindowClosed`, `windowFocused` and `dispose`; the
 * end-to-end harness also `start` and `setBuiltin`. Only tests use `handlers`, `sources`, `auth`, `api`
 * and `playerState`.
 */
export interface Core {
  router: IpcRouter
  /** Every channel's handler, unwrapped (tests: the router wraps these). */
  handlers: Handlers
  events: EventHub
  settings: SettingsService
  /** Tests only. */
  sources: SourceRegistry
  /** Tests only. */
  auth: AuthService
  /** The active data source's API client; throws a network error while the built-in one is not running (tests only). */
  api: () => ApiClient
  /** Checks the active source's login (signs in to the built-in one by itself). */
  start: () => Promise<AuthState>
  /** The built-in data source (re)started, is restarting, or gave up (when the glue supervises it). */
  setBuiltin: (url: string | undefined, state: DataSourceState) => void
  /** The built-in data source when the core supervises it (`spawnBuiltin`). */
  builtin: { start: () => Promise<void>; stop: () => Promise<void> }
  /** From the tray or a media key. */
  playerCommand: (command: PlayerCommandName) => void
  /**
   * Before quitting: asks the renderer to save the player's session (its periodic save may be seconds
   * old, and a save from a closing page may never arrive) and resolves once it did, or after
   * `timeoutMs` when the page does not answer. At once when nothing is in the player.
   */
  beforeQuit: (timeoutMs?: number) => Promise<void>
  /** What the renderer last reported playing (tests only; the tray gets it through `onPlayerState`). */
  playerState: () => PlayerState | null
  /** Desktop lyrics, mini player and track notifications (tray and shortcut toggle them). */
  listen: ReturnType<typeof createListen>
  /** The user closed the QR login window. */
  loginWindowClosed: () => void
  /** The main window got focus: an offline data source is asked at once; resolves whether it answers. */
  windowFocused: () => Promise<boolean>
  /** The installed app's updates: `start()` once the window is open; `install()` is "Restart to update". */
  updates: ReturnType<typeof createUpdateService>
  /** The media scheme's handler (`protocol.handle` in the app, a route in the end-to-end harness). */
  media: MediaHandler
  /** The media cache, downloads and offline mode. */
  offline: ReturnType<typeof createOffline>
  /** The listening history (records, pages, private session). */
  history: HistoryService
  /** The global shortcuts: `start()` registers them once the app is ready. */
  shortcuts: ReturnType<typeof createShortcuts>
  /** ListenBrainz and Last.fm scrobbling. */
  scrobble: ScrobbleService
  /** Stops every timer and request; resolves once the media cache is closed (and a folder of its own removed). */
  dispose: () => Promise<void>
}
