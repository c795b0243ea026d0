/**
 * A stand-in for the `electron` module, so the BUILT main process (out/main/index.js) runs unchanged
 * under Node 24 (the line Electron 45 embeds) where Electron's binary cannot be downloaded. Written from
 * Electron's API documentation; `register.ts` resolves `electron` here. Node-only: runs in the app's
 * process; what runs in the page is `page-runtime.ts` and `context-bridge.ts`.
 *
 * Reproduced (what the tests rely on):
 * - `app`: `ready`/`whenReady`, `before-quit` → windows closed → `will-quit` → `quit` → exit;
 *   `window-all-closed` (quits when nobody listens); `app.exit(code)` at once; the single-instance lock
 *   across processes (a lock file and a socket under userData: the second instance gets `false`, the first
 *   gets `second-instance` with its argv); `getPath` under `$CADENCE_STANDIN_HOME` (userData is
 *   appData/<productName or name>, `setPath` overrides), `getName`/`getVersion` from the app's
 *   package.json, `isPackaged` from `$CADENCE_STANDIN_PACKAGED`, `activate` (sent by the test);
 * - `BrowserWindow`: a page of one headless Chromium (Playwright, persistent profile) loading the built
 *   renderer over `file://` (with `--allow-file-access-from-files`) with the window's `preload` (the built
 *   CommonJS) run first, its `require('electron')` giving `contextBridge` (Electron's copy rules) and
 *   `ipcRenderer`; `ready-to-show`, `show`/`hide`/`focus`/`close`/`closed` events, bounds bookkeeping;
 * - `ipcMain.handle`/`on`: `ipcRenderer.invoke` reaches the registered handler with an event whose
 *   `sender` is the window's webContents and `senderFrame.url` the frame's real URL (so sender checks
 *   run); arguments and answers pass `structuredClone` (a function is refused); a throwing handler
 *   rejects in the page with `Error invoking remote method '<channel>': …`, message only;
 *   `webContents.send` reaches `ipcRenderer.on` listeners;
 * - `protocol.registerSchemesAsPrivileged` (before `ready` only) and `protocol.handle`: a page's media or
 *   document request on a handled scheme reaches the handler as a `Request` and is answered with its
 *   `Response` (status, headers, body) through Playwright's request interception, and so does `fetch()`
 *   on a scheme privileged with `supportFetchAPI` (through a binding, `support/scheme-fetch.ts`: plain
 *   Chromium refuses such a fetch before any request); each answer is recorded (`protocol-request`);
 * - `utilityProcess.fork`: a real Node 24 child process with `process.parentPort` (messages as
 *   `{ data }`), `postMessage`, `kill`, `exit` events; utility processes end with the app;
 * - recorders (sent to the test as `record` messages): `Tray` (icon file, tooltip, menu as data; the test
 *   clicks items), `Menu`, `nativeImage` (the path; empty when the file does not exist), `globalShortcut`,
 *   `Notification`, `shell`, `dialog`, `safeStorage`, `session` handlers, `setAppUserModelId`, the
 *   pages' console messages and errors;
 * - the platform: `$CADENCE_STANDIN_PLATFORM` (win32, darwin) is what `process.platform` says to the
 *   app's own code (out/main; libraries and the stand-in see the real one), and the API follows it as
 *   Electron's does: `win.setThumbarButtons` exists on Windows only (false, nothing set, while the window
 *   is hidden; at most 7 buttons, each with an icon and a click; the test clicks them), `app.dock` on
 *   macOS only (its menu recorded; the test clicks items); `win.setProgressBar` everywhere (recorded);
 * - `globalShortcut`: an accelerator Electron cannot parse throws (`conversion failure`), one named in
 *   `$CADENCE_STANDIN_TAKEN_SHORTCUTS` (a JSON list) is held by "another application": `register`
 *   returns false and nothing is registered; the test presses registered ones.
 * Not reproduced (tests of these test the stand-in, not Electron): real tray, screen, notifications and
 * OS integration; safeStorage encryption (a reversible encoding, backend from
 * `$CADENCE_STANDIN_SAFESTORAGE`); two JavaScript worlds per page (the preload runs in the page's world,
 * the copy rules stand in for the boundary; the page could reach `__standinEmit`); navigation,
 * window-open, permission and `webRequest` handlers are recorded, never driven by Chromium; the sandbox;
 * custom-scheme privileges other than `supportFetchAPI` (recorded only; bodies are sent whole, not
 * streamed; an element's CORS load on the scheme is refused, as Chromium refuses unknown schemes);
 * Electron's process model (every window is a page of one browser); GPU, menus on screen, devtools.
 */
import { EventEmitter } from 'node:events'
import { fork } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import type { Server } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import type { BrowserContext, Page } from 'playwright-core'
import { CHROMIUM_FLAGS, findChromium } from '../../support/chromium.ts'
import { fulfilFromHandler } from '../../support/scheme-route.ts'
import { answerSchemeFetch } from '../../support/scheme-fetch.ts'
import { decode, encode } from './wire.ts'
import { unguardedFork } from './asar-rules.ts'
import { packagedApp, RESOURCES_ENV, serveArchives } from './packaged.ts'
import { net } from './net.ts'
import { heapSnapshot, processMemory } from './memory.ts'

// ---- the test's view: records out, commands in ----

export interface StandInRecord {
  kind: string
  data?: unknown
}

function record(kind: string, data?: unknown): void {
  try {
    process.send?.({ type: 'record', kind, data } satisfies StandInRecord & { type: string })
  } catch {
    // The test is gone; nothing to tell.
  }
}

const HOME = process.env.CADENCE_STANDIN_HOME ?? join(tmpdir(), `cadence-standin-${process.pid}`)

// ---- the platform the app runs on ----

/** The platform the stand-in plays (the app's code sees it as `process.platform`). */
export const PLATFORM: string = process.env.CADENCE_STANDIN_PLATFORM ?? process.platform
if (PLATFORM !== process.platform) {
  const real = process.platform
  const appCode = /[/\\]out[/\\]main[/\\]/
  const descriptor = {
    configurable: true,
    enumerable: true,
    get(): string {
      // Only the app's own code (the built main) sees the played platform: Playwright, Node and the
      // libraries keep the real one, so Chromium and the child processes still start as on this machine.
      const holder: { stack?: string } = {}
      const limit = Error.stackTraceLimit
      Error.stackTraceLimit = 1
      Error.captureStackTrace(holder, descriptor.get)
      Error.stackTraceLimit = limit
      const caller = holder.stack?.split('\n')[1] ?? ''
      return appCode.test(caller) && !caller.includes('node_modules') ? PLATFORM : real
    },
  }
  Object.defineProperty(process, 'platform', descriptor)
}
mkdirSync(HOME, { recursive: true })

function findAppPackage(): { dir: string; json: { name?: string; productName?: string; version?: string } } {
  // An installed app (packaged-boot.ts): the app is `resources/app.asar`, read through the asar rules.
  const packaged = packagedApp()
  if (packaged) {
    return {
      dir: packaged.appPath,
      json: JSON.parse(readFileSync(join(packaged.appPath, 'package.json'), 'utf8')),
    }
  }
  let dir = dirname(resolve(process.argv[1] ?? '.'))
  for (;;) {
    const file = join(dir, 'package.json')
    if (existsSync(file)) return { dir, json: JSON.parse(readFileSync(file, 'utf8')) }
    const up = dirname(dir)
    if (up === dir) return { dir: process.cwd(), json: {} }
    dir = up
  }
}
const appPackage = findAppPackage()

// ---- app ----

interface PreventableEvent {
  defaultPrevented: boolean
  preventDefault(): void
}
const preventable = (): PreventableEvent => ({
  defaultPrevented: false,
  preventDefault() {
    this.defaultPrevented = true
  },
})

const paths = new Map<string, string>()
const children = new Set<ChildProcess>()
const pendingBeforeExit: Promise<unknown>[] = []
let ready = false
let quitting = false
let lockServer: Server | undefined
let lockFile: string | undefined
let socketPath: string | undefined
let appName = appPackage.json.productName ?? appPackage.json.name ?? 'Electron'

class App extends EventEmitter {
  readonly isPackaged = process.env.CADENCE_STANDIN_PACKAGED === '1' || packagedApp() !== undefined
  readonly commandLine = {
    appendSwitch: (name: string, value?: string) => record('command-line-switch', { name, value }),
    hasSwitch: () => false,
    getSwitchValue: () => '',
  }

  whenReady(): Promise<void> {
    return whenReadyPromise
  }
  isReady(): boolean {
    return ready
  }
  getName(): string {
    return appName
  }
  setName(name: string): void {
    appName = name
  }
  getVersion(): string {
    return appPackage.json.version ?? '0.0.0'
  }
  getAppPath(): string {
    return appPackage.dir
  }
  getLocale(): string {
    return 'en-US'
  }
  getPath(name: string): string {
    const set = paths.get(name)
    if (set) return set
    switch (name) {
      case 'home':
        return join(HOME, 'home')
      case 'appData':
        return join(HOME, 'appData')
      case 'userData':
      case 'sessionData':
        return join(this.getPath('appData'), appName)
      case 'logs':
        return join(this.getPath('userData'), 'logs')
      case 'temp':
        return tmpdir()
      case 'exe':
        return process.execPath
      default:
        return join(HOME, name)
    }
  }
  setPath(name: string, path: string): void {
    paths.set(name, path)
    record('set-path', { name, path })
  }
  setAppUserModelId(id: string): void {
    record('app-user-model-id', id)
  }
  focus(options?: unknown): void {
    record('app-focus', options)
  }

  requestSingleInstanceLock(additionalData?: unknown): boolean {
    const dir = this.getPath('userData')
    mkdirSync(dir, { recursive: true })
    lockFile = join(dir, 'SingletonLock')
    socketPath = join(dir, 'SingletonSocket')
    const holder = existsSync(lockFile) ? Number(readFileSync(lockFile, 'utf8')) : NaN
    if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
      const message = JSON.stringify({ argv: process.argv, cwd: process.cwd(), additionalData })
      pendingBeforeExit.push(
        new Promise<void>((done) => {
          const socket = connect(socketPath!, () => socket.end(message))
          socket.on('close', () => done())
          socket.on('error', () => done())
        }),
      )
      lockFile = undefined
      record('single-instance-lock', { granted: false })
      return false
    }
    writeFileSync(lockFile, String(process.pid))
    rmSync(socketPath, { force: true })
    lockServer = createServer((socket) => {
      let text = ''
      socket.on('data', (chunk) => (text += chunk))
      socket.on('end', () => {
        const {
          argv,
          cwd,
          additionalData: data,
        } = JSON.parse(text) as {
          argv: string[]
          cwd: string
          additionalData: unknown
        }
        record('second-instance', { argv })
        this.emit('second-instance', preventable(), argv, cwd, data)
      })
    }).listen(socketPath)
    record('single-instance-lock', { granted: true })
    return true
  }
  hasSingleInstanceLock(): boolean {
    return lockServer !== undefined
  }
  releaseSingleInstanceLock(): void {
    lockServer?.close()
    lockServer = undefined
    if (lockFile) rmSync(lockFile, { force: true })
  }

  quit(): void {
    if (quitting) return
    const before = preventable()
    this.emit('before-quit', before)
    if (before.defaultPrevented) return
    quitting = true
    record('quit-requested')
    void (async () => {
      for (const window of [...openWindows]) {
        window.close()
        if (!window.isDestroyed()) {
          // A window's `close` was prevented: the quit is cancelled, as in Electron.
          quitting = false
          return
        }
      }
      await Promise.all([...openWindows].map((window) => window.closedPromise))
      const willQuit = preventable()
      this.emit('will-quit', willQuit)
      if (willQuit.defaultPrevented) {
        quitting = false
        return
      }
      this.emit('quit', preventable(), 0)
      await shutdown(0)
    })()
  }
  exit(code = 0): void {
    quitting = true
    record('exit', { code })
    void shutdown(code)
  }
  relaunch(): void {
    record('relaunch')
  }
  /** macOS only, as in Electron (`app.dock` is undefined elsewhere). */
  readonly dock = PLATFORM === 'darwin' ? createDock() : undefined
}

let dockMenu: Menu | null = null
function createDock() {
  let badge = ''
  return {
    setMenu(menu: Menu): void {
      dockMenu = menu
      record('dock-menu', menu.describe())
    },
    getMenu: (): Menu | null => dockMenu,
    setBadge: (text: string) => void (badge = text),
    getBadge: () => badge,
    bounce: () => 0,
    cancelBounce: () => {},
    show: async () => {},
    hide: () => {},
    isVisible: () => true,
    setIcon: () => {},
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

export const app = new App()

const whenReadyPromise = new Promise<void>((done) =>
  setTimeout(() => {
    ready = true
    record('ready')
    app.emit('ready', preventable(), {})
    done()
  }, 0),
)

let shuttingDown: Promise<void> | undefined
function shutdown(code: number): Promise<void> {
  shuttingDown ??= (async () => {
    await Promise.all(pendingBeforeExit)
    // Electron's utility processes end with the app.
    for (const child of children) child.kill()
    const context = browser
    browser = undefined
    if (context) await (await context).close().catch(() => {})
    app.releaseSingleInstanceLock()
    record('exited', { code })
    process.exit(code)
  })()
  return shuttingDown
}

process.on('message', (message: { type?: string; id?: string }) => {
  switch (message?.type) {
    // The bench's probes (test/bench/library-main.ts): the process's memory, a heap snapshot to a file.
    case 'memory':
      record('memory', { id: message.id, ...processMemory(true) })
      break
    case 'modules': {
      const urls = (globalThis as { __standinResolved?: Set<string> }).__standinResolved ?? new Set()
      record('modules', { id: message.id, urls: [...urls] })
      break
    }
    case 'heap-snapshot':
      record('heap-snapshot', { file: heapSnapshot(message.id ?? 'stand-in.heapsnapshot') })
      break
    case 'tray-click': {
      const tray = [...trays].at(-1)
      const item = tray?.menu?.find(message.id ?? '')
      if (item?.click) item.click(item, undefined, {})
      else record('tray-click-missed', { id: message.id })
      break
    }
    case 'dock-click': {
      const item = dockMenu?.find(message.id ?? '')
      if (item?.click && item.enabled !== false) item.click(item, undefined, {})
      else record('dock-click-missed', { id: message.id })
      break
    }
    case 'thumbar-click': {
      const window = [...openWindows].find((open) => open.thumbar.length > 0)
      const button = window?.thumbar[Number(message.id)]
      if (button && !button.flags?.includes('disabled')) button.click()
      else record('thumbar-click-missed', { index: message.id })
      break
    }
    case 'shortcut-press': {
      const callback = shortcuts.get(message.id ?? '')
      if (callback) callback()
      else record('shortcut-press-missed', { accelerator: message.id })
      break
    }
    case 'tray-icon-click':
      ;[...trays].at(-1)?.emit('click', preventable())
      break
    case 'activate':
      app.emit('activate', preventable(), openWindows.size > 0)
      break
    case 'quit':
      app.quit()
      break
  }
})
process.on('disconnect', () => void shutdown(0))
// Electron quits gracefully on SIGINT and SIGTERM.
process.on('SIGINT', () => app.quit())
process.on('SIGTERM', () => app.quit())

// ---- windows: pages of one Chromium ----

let browser: Promise<BrowserContext> | undefined
const pageOwners = new Map<Page, WebContents>()
const openWindows = new Set<BrowserWindow>()
let nextId = 1

function browserContext(): Promise<BrowserContext> {
  browser ??= (async () => {
    const profile = join(HOME, 'chromium-profile')
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: findChromium(),
      headless: true,
      args: [...CHROMIUM_FLAGS, '--allow-file-access-from-files', '--remote-debugging-port=0'],
      viewport: { width: 1200, height: 780 },
    })
    // Custom schemes: a page's request on a scheme `protocol.handle` took goes to its handler.
    await context.route(
      (url) => protocolHandlers.has(url.protocol.slice(0, -1)),
      (route) => {
        const scheme = new URL(route.request().url()).protocol.slice(0, -1)
        const handler = protocolHandlers.get(scheme)
        return handler ? fulfilFromHandler(route, handler) : route.abort('failed')
      },
    )
    await context.exposeBinding('__standinProtocol', (_source, message: string) => {
      const scheme = (JSON.parse(message) as { url: string }).url.split(':')[0]
      const handler = protocolHandlers.get(scheme)
      return handler
        ? answerSchemeFetch(handler, message)
        : Promise.resolve(JSON.stringify({ error: `no handler for ${scheme}` }))
    })
    await context.exposeBinding('__standinIpc', (source, message: string) =>
      answerIpc(source.page, source.frame.url(), message),
    )
    const port = readFileSync(join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0]
    record('devtools', { port: Number(port) })
    return context
  })()
  return browser
}

let runtimeCode: Promise<string> | undefined
function pageRuntime(): Promise<string> {
  runtimeCode ??= import('vite').then(async ({ build }) => {
    const output = await build({
      configFile: false,
      logLevel: 'silent',
      build: {
        write: false,
        minify: false,
        lib: {
          entry: fileURLToPath(new URL('./page-runtime.ts', import.meta.url)),
          formats: ['iife'],
          name: '__standinRuntime',
        },
      },
    })
    const result = Array.isArray(output) ? output[0] : output
    if (!('output' in result)) throw new Error('unexpected vite build result')
    return result.output[0].code
  })
  return runtimeCode
}

/** The window's init script: the page runtime, then the preload's CommonJS with its own `require`. */
async function preloadScript(preload: string | undefined): Promise<string> {
  const runtime = await pageRuntime()
  const body = preload ? readFileSync(preload, 'utf8') : ''
  const fetchSchemes = [...privilegedSchemes].filter(([, p]) => p.supportFetchAPI).map(([scheme]) => scheme)
  return `(function () {
globalThis.__standinFetchSchemes = ${JSON.stringify(fetchSchemes)};
${runtime}
const electron = __standinRuntime.electron;
const require = (id) => {
  if (id === 'electron') return electron;
  throw new Error("Cannot find module '" + id + "' (a sandboxed preload may only require electron)");
};
const module = { exports: {} };
(function (exports, require, module, __filename, __dirname) {
${body}
})(module.exports, require, module, ${JSON.stringify(preload ?? '')}, ${JSON.stringify(preload ? dirname(preload) : '')});
})();`
}

async function answerIpc(page: Page, frameUrl: string, message: string): Promise<string> {
  const contents = pageOwners.get(page)
  const { kind, channel, args } = decode(message) as { kind: string; channel: string; args: unknown[] }
  const event = {
    sender: contents,
    senderFrame: { url: frameUrl, origin: originOf(frameUrl), isDestroyed: () => false },
    frameId: 1,
    processId: contents?.id ?? 0,
    returnValue: undefined as unknown,
  }
  if (kind === 'send') {
    ipcMain.emit(channel, event, ...structuredClone(args))
    return encode({})
  }
  const handler = ipcMain.handlers.get(channel)
  if (!handler) {
    return encode({
      error: `Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`,
    })
  }
  try {
    return encode({ value: structuredClone(await handler(event, ...structuredClone(args))) })
  } catch (error) {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    return encode({ error: `Error invoking remote method '${channel}': ${text}` })
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return 'null'
  }
}

type WindowOpenHandler = (details: { url: string }) => { action: 'allow' | 'deny' }

class WebContents extends EventEmitter {
  readonly id: number
  readonly session = defaultSession
  page: Page | undefined
  destroyed = false
  windowOpenHandler: WindowOpenHandler | undefined

  constructor(id: number) {
    super()
    this.id = id
  }
  send(channel: string, ...args: unknown[]): void {
    const message = encode({ channel, args: structuredClone(args) })
    const page = this.page
    if (!page || this.destroyed) return
    void page
      .evaluate(
        (text) => (globalThis as unknown as { __standinEmit(t: string): void }).__standinEmit(text),
        message,
      )
      .catch(() => {})
  }
  getURL(): string {
    return this.page?.url() ?? ''
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.windowOpenHandler = handler
    record('window-open-handler', { id: this.id })
  }
  executeJavaScript(code: string): Promise<unknown> {
    return this.page ? this.page.evaluate(code) : Promise.reject(new Error('not loaded'))
  }
  openDevTools(): void {}
  reload(): void {
    void this.page?.reload()
  }
}

interface Bounds {
  x: number
  y: number
  width: number
  height: number
}

export class BrowserWindow extends EventEmitter {
  static getAllWindows(): BrowserWindow[] {
    return [...openWindows]
  }
  static fromWebContents(contents: WebContents): BrowserWindow | null {
    return [...openWindows].find((window) => window.webContents === contents) ?? null
  }
  static getFocusedWindow(): BrowserWindow | null {
    return [...openWindows].find((window) => window.focused) ?? null
  }

  readonly id: number
  readonly webContents: WebContents
  readonly closedPromise: Promise<void>
  private readonly pageReady: Promise<Page>
  private destroyed = false
  private visible = false
  private minimized = false
  private maximized = false
  focused = false
  private shownOnce = false
  private bounds: Bounds
  private title: string

  constructor(options: Record<string, unknown> = {}) {
    super()
    this.id = nextId++
    this.webContents = new WebContents(this.id)
    this.title = String(options.title ?? appName)
    this.bounds = {
      x: (options.x as number | undefined) ?? 100,
      y: (options.y as number | undefined) ?? 100,
      width: (options.width as number | undefined) ?? 800,
      height: (options.height as number | undefined) ?? 600,
    }
    const prefs = (options.webPreferences ?? {}) as Record<string, unknown>
    record('window-created', {
      id: this.id,
      title: this.title,
      bounds: this.bounds,
      icon: windowIcon(options.icon),
      webPreferences: Object.fromEntries(Object.entries(prefs).filter(([, v]) => typeof v !== 'function')),
    })
    openWindows.add(this)
    let closed!: () => void
    this.closedPromise = new Promise((done) => (closed = done))
    this.once('closed', () => closed())
    const contents = this.webContents
    this.pageReady = (async () => {
      const context = await browserContext()
      const page = await context.newPage()
      contents.page = page
      pageOwners.set(page, contents)
      page.on('console', (message) =>
        record('console', { window: this.id, type: message.type(), text: message.text() }),
      )
      page.on('pageerror', (error) => record('page-error', { window: this.id, message: error.message }))
      await serveArchives(context, page)
      await page.addInitScript({ content: await preloadScript(prefs.preload as string | undefined) })
      return page
    })()
    this.pageReady.catch((error: unknown) => record('window-failed', { id: this.id, message: String(error) }))
    app.emit('web-contents-created', preventable(), this.webContents)
    if (options.show !== false) this.show()
  }

  async loadURL(url: string): Promise<void> {
    const page = await this.pageReady
    await page.goto(url)
    record('window-loaded', { id: this.id, url })
    this.webContents.emit('did-finish-load')
    if (!this.shownOnce) {
      this.shownOnce = true
      this.emit('ready-to-show')
    }
  }
  loadFile(file: string, options: { hash?: string; query?: Record<string, string> } = {}): Promise<void> {
    const url = new URL(pathToFileURL(resolve(file)).href)
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value)
    if (options.hash) url.hash = options.hash
    return this.loadURL(url.href)
  }

  show(): void {
    this.visible = true
    this.minimized = false
    this.focused = true
    record('window-show', { id: this.id })
    this.emit('show')
    this.emit('focus')
  }
  hide(): void {
    this.visible = false
    this.focused = false
    record('window-hide', { id: this.id })
    this.emit('hide')
  }
  focus(): void {
    this.focused = true
    record('window-focus', { id: this.id })
    this.emit('focus')
  }
  isVisible(): boolean {
    return this.visible
  }
  isFocused(): boolean {
    return this.focused
  }
  minimize(): void {
    this.minimized = true
    this.emit('minimize')
  }
  isMinimized(): boolean {
    return this.minimized
  }
  restore(): void {
    this.minimized = false
    record('window-restore', { id: this.id })
    this.emit('restore')
  }
  maximize(): void {
    this.maximized = true
    this.emit('maximize')
  }
  unmaximize(): void {
    this.maximized = false
    this.emit('unmaximize')
  }
  isMaximized(): boolean {
    return this.maximized
  }
  getBounds(): Bounds {
    return { ...this.bounds }
  }
  getNormalBounds(): Bounds {
    return { ...this.bounds }
  }
  /** Moves or resizes the window as a person dragging it would: `move`/`resize`, then `moved`/`resized`. */
  setBounds(bounds: Partial<Bounds>): void {
    const before = this.bounds
    this.bounds = { ...before, ...bounds }
    if (before.x !== this.bounds.x || before.y !== this.bounds.y) {
      this.emit('move')
      this.emit('moved')
    }
    if (before.width !== this.bounds.width || before.height !== this.bounds.height) {
      this.emit('resize')
      this.emit('resized')
    }
  }
  setTitle(title: string): void {
    this.title = title
  }
  getTitle(): string {
    return this.title
  }
  setMenuBarVisibility(): void {}
  setMenu(): void {}
  /** The thumbnail toolbar's buttons as last set (Windows). */
  thumbar: ThumbarButton[] = []
  /**
   * Windows only (removed below on other platforms). Returns whether the buttons were added: not while
   * the window is hidden (the taskbar button is not there), not more than 7 (Windows' limit).
   */
  setThumbarButtons(buttons: ThumbarButton[]): boolean {
    for (const button of buttons) {
      if (!(button?.icon instanceof NativeImage) || typeof button.click !== 'function') {
        throw new TypeError('Error processing argument at index 0, conversion failure from thumbar buttons')
      }
    }
    if (!this.visible || this.destroyed || buttons.length > 7) {
      record('thumbar-refused', { id: this.id, visible: this.visible, count: buttons.length })
      return false
    }
    this.thumbar = buttons
    record('thumbar-buttons', {
      id: this.id,
      buttons: buttons.map((button) => ({
        tooltip: button.tooltip,
        flags: button.flags ?? ['enabled'],
        icon: button.icon.path,
        empty: button.icon.isEmpty(),
      })),
    })
    return true
  }
  /** A fraction (above 1: indeterminate; below 0: removed); `mode` is Windows only. */
  setProgressBar(progress: number, options?: { mode?: string }): void {
    record('progress-bar', { id: this.id, progress, mode: options?.mode })
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  close(): void {
    if (this.destroyed) return
    const event = preventable()
    this.emit('close', event)
    if (event.defaultPrevented) return
    this.destroy()
  }
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.webContents.destroyed = true
    openWindows.delete(this)
    record('window-closed', { id: this.id })
    void this.pageReady
      .then((page) => page.close({ runBeforeUnload: false }))
      .catch(() => {})
      .finally(() => {
        this.emit('closed')
        this.webContents.emit('destroyed')
        if (openWindows.size === 0 && !quitting) {
          if (app.listenerCount('window-all-closed') > 0) app.emit('window-all-closed')
          else app.quit()
        }
      })
  }
}

interface ThumbarButton {
  icon: NativeImage
  click: () => void
  tooltip?: string
  flags?: string[]
}
if (PLATFORM !== 'win32') {
  // Electron defines it on Windows only: elsewhere calling it throws "not a function".
  delete (BrowserWindow.prototype as { setThumbarButtons?: unknown }).setThumbarButtons
}

// ---- IPC ----

type Handler = (event: unknown, ...args: unknown[]) => unknown
class IpcMain extends EventEmitter {
  readonly handlers = new Map<string, Handler>()
  handle(channel: string, handler: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
    this.handlers.set(channel, handler)
  }
  handleOnce(channel: string, handler: Handler): void {
    this.handle(channel, (...args) => {
      this.handlers.delete(channel)
      return handler(...args)
    })
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel)
  }
}
export const ipcMain = new IpcMain()

// ---- protocol ----

type ProtocolHandler = (request: Request) => Response | Promise<Response>
interface CustomScheme {
  scheme: string
  privileges?: Record<string, boolean>
}
const protocolHandlers = new Map<string, ProtocolHandler>()
const privilegedSchemes = new Map<string, Record<string, boolean>>()

/**
 * From Electron's `protocol` docs: `registerSchemesAsPrivileged` only before `ready` (and once: a second
 * call replaces the first); `handle(scheme, handler)` with a handler taking a `Request` and answering a
 * `Response` (or a promise of one), refused for a scheme already handled; `unhandle`, `isProtocolHandled`.
 * Requests reach the handler through Playwright's interception (see `scheme-route.ts` for what that
 * covers: media and document loads, not `fetch`).
 */
export const protocol = {
  registerSchemesAsPrivileged(schemes: CustomScheme[]): void {
    if (ready) throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready')
    privilegedSchemes.clear()
    for (const { scheme, privileges } of schemes) privilegedSchemes.set(scheme, { ...privileges })
    record('protocol-privileged', schemes)
  },
  handle(scheme: string, handler: ProtocolHandler): void {
    if (protocolHandlers.has(scheme)) throw new Error(`Failed to register protocol: ${scheme}`)
    protocolHandlers.set(scheme, async (request) => {
      const response = await handler(request)
      record('protocol-request', {
        url: request.url,
        range: request.headers.get('range') ?? undefined,
        status: response.status,
      })
      return response
    })
    record('protocol-handle', { scheme, privileges: privilegedSchemes.get(scheme) ?? null })
  },
  unhandle(scheme: string): void {
    protocolHandlers.delete(scheme)
  },
  isProtocolHandled(scheme: string): boolean {
    return protocolHandlers.has(scheme)
  },
}

// ---- utility processes ----

const utilityShim = new URL('./utility-shim.ts', import.meta.url).href
const asarRegister = new URL('./asar-register.ts', import.meta.url).href

class UtilityProcess extends EventEmitter {
  pid: number | undefined
  private readonly child: ChildProcess
  constructor(child: ChildProcess) {
    super()
    this.child = child
    this.pid = child.pid
    child.on('spawn', () => this.emit('spawn'))
    child.on('message', (message: { __standinRecord?: StandInRecord }) => {
      // The utility shim's records (worker threads) go to the test, not to the app.
      if (message?.__standinRecord) record(message.__standinRecord.kind, message.__standinRecord.data)
      else this.emit('message', message)
    })
    child.on('error', (error) => this.emit('error', 'FatalError', '', error))
    child.on('exit', (code, signal) => {
      children.delete(child)
      record('utility-exit', { pid: child.pid, code, signal })
      this.pid = undefined
      this.emit('exit', code ?? (signal ? 1 : 0))
    })
  }
  postMessage(message: unknown): void {
    if (this.child.connected) this.child.send(structuredClone(message) as Parameters<ChildProcess['send']>[0])
  }
  kill(): boolean {
    return this.child.kill()
  }
}

export const utilityProcess = {
  fork(modulePath: string, args: string[] = [], options: Record<string, unknown> = {}): UtilityProcess {
    const stdio = options.stdio === 'inherit' ? 'inherit' : 'pipe'
    // An installed app's utility process reads its module from the archive with the same asar rules.
    const packaged = packagedApp()
    const env = (options.env as NodeJS.ProcessEnv | undefined) ?? process.env
    const child = (packaged ? unguardedFork : fork)(modulePath, args, {
      execPath: process.execPath,
      execArgv: [
        ...((options.execArgv as string[] | undefined) ?? []),
        '--import',
        utilityShim,
        ...(packaged ? ['--import', asarRegister] : []),
      ],
      cwd: options.cwd as string | undefined,
      env: packaged ? { ...env, [RESOURCES_ENV]: packaged.resourcesPath } : env,
      stdio: [stdio === 'inherit' ? 'ignore' : 'pipe', stdio, stdio, 'ipc'],
    })
    children.add(child)
    record('utility-fork', {
      pid: child.pid,
      modulePath,
      args,
      execArgv: options.execArgv,
      serviceName: options.serviceName,
    })
    return new UtilityProcess(child)
  },
}

// ---- recorders ----

/** A window's `icon` option as a record: the file and whether it loads (a path or a NativeImage). */
function windowIcon(icon: unknown): { path: string; empty: boolean } | undefined {
  if (icon === undefined) return undefined
  const image = typeof icon === 'string' ? new NativeImage(icon) : (icon as NativeImage)
  return { path: image.path, empty: image.isEmpty() }
}

class NativeImage {
  readonly path: string
  private readonly empty: boolean
  constructor(path: string) {
    this.path = path
    this.empty = path === '' || !existsSync(path)
  }
  isEmpty(): boolean {
    return this.empty
  }
  resize(): NativeImage {
    return this
  }
  getSize(): { width: number; height: number } {
    return this.empty ? { width: 0, height: 0 } : { width: 16, height: 16 }
  }
  toDataURL(): string {
    return this.empty
      ? 'data:image/png;base64,'
      : `data:image/png;base64,${readFileSync(this.path).toString('base64')}`
  }
  setTemplateImage(): void {}
}
export const nativeImage = {
  createFromPath: (path: string) => new NativeImage(path),
  createEmpty: () => new NativeImage(''),
}

interface MenuItemOptions {
  id?: string
  label?: string
  type?: string
  enabled?: boolean
  checked?: boolean
  visible?: boolean
  click?: (item: unknown, window: unknown, event: unknown) => void
  submenu?: MenuItemOptions[]
}
export class Menu {
  static buildFromTemplate(template: MenuItemOptions[]): Menu {
    return new Menu(template)
  }
  static setApplicationMenu(menu: Menu | null): void {
    record('application-menu', menu?.describe() ?? null)
  }
  readonly items: MenuItemOptions[]
  constructor(items: MenuItemOptions[] = []) {
    this.items = items.map((item) => ({ enabled: true, visible: true, type: 'normal', ...item }))
  }
  find(id: string): MenuItemOptions | undefined {
    return this.items.find((item) => item.id === id)
  }
  describe(): Array<Omit<MenuItemOptions, 'click' | 'submenu'>> {
    return this.items.map(({ id, label, type, enabled, checked, visible }) => ({
      id,
      label,
      type,
      enabled,
      checked,
      visible,
    }))
  }
}

const trays = new Set<Tray>()
export class Tray extends EventEmitter {
  menu: Menu | null = null
  private destroyed = false
  constructor(image: NativeImage | string) {
    super()
    const icon = typeof image === 'string' ? new NativeImage(image) : image
    trays.add(this)
    record('tray-created', { icon: icon.path, empty: icon.isEmpty() })
  }
  setToolTip(text: string): void {
    record('tray-tooltip', text)
  }
  setTitle(): void {}
  setImage(image: NativeImage): void {
    record('tray-image', { icon: image.path, empty: image.isEmpty() })
  }
  setContextMenu(menu: Menu | null): void {
    this.menu = menu
    record('tray-menu', menu?.describe() ?? null)
  }
  destroy(): void {
    this.destroyed = true
    trays.delete(this)
    record('tray-destroyed')
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
}

/** Held by "another application": `register` fails for these, as Electron's does, silently. */
const takenShortcuts = () =>
  new Set(
    (JSON.parse(process.env.CADENCE_STANDIN_TAKEN_SHORTCUTS ?? '[]') as string[]).map((accelerator) =>
      acceleratorKey(accelerator),
    ),
  )
const shortcuts = new Map<string, () => void>()
export const globalShortcut = {
  register(accelerator: string, callback: () => void): boolean {
    if (typeof callback !== 'function') throw new TypeError('Error processing argument at index 1')
    const key = acceleratorKey(accelerator)
    if (takenShortcuts().has(key) || [...shortcuts.keys()].some((held) => acceleratorKey(held) === key)) {
      record('shortcut-taken', accelerator)
      return false
    }
    shortcuts.set(accelerator, callback)
    record('shortcut-registered', accelerator)
    return true
  },
  unregister(accelerator: string): void {
    shortcuts.delete(accelerator)
    record('shortcut-unregistered', accelerator)
  },
  unregisterAll(): void {
    shortcuts.clear()
    record('shortcut-unregistered', '*')
  },
  isRegistered: (accelerator: string) => shortcuts.has(accelerator),
}

/**
 * An accelerator as Electron parses it (the Accelerator docs): modifiers and exactly one key code, joined
 * by `+`, case-insensitive; anything else throws as Electron's argument conversion does. Answers one
 * spelling per shortcut (CmdOrCtrl is Ctrl here, as on Linux and Windows).
 */
function acceleratorKey(accelerator: string): string {
  const fail = () => {
    throw new TypeError(`Error processing argument at index 0, conversion failure from ${accelerator}`)
  }
  if (typeof accelerator !== 'string' || accelerator.length === 0) fail()
  const parts = accelerator.replace(/\+\+$/, '+Plus').split('+')
  const modifiers = new Set<string>()
  let key: string | undefined
  for (const part of parts) {
    const lower = part.toLowerCase()
    const modifier = MODIFIERS[lower]
    if (modifier) {
      modifiers.add(modifier)
      continue
    }
    if (key !== undefined || !isKeyCode(part)) fail()
    key = lower === 'enter' ? 'return' : lower === 'esc' ? 'escape' : lower
  }
  if (key === undefined) fail()
  return [...[...modifiers].sort(), key].join('+')
}
const MODIFIERS: Record<string, string> = {
  command: 'ctrl',
  cmd: 'ctrl',
  control: 'ctrl',
  ctrl: 'ctrl',
  commandorcontrol: 'ctrl',
  cmdorctrl: 'ctrl',
  alt: 'alt',
  option: 'alt',
  altgr: 'altgr',
  shift: 'shift',
  super: 'super',
  meta: 'super',
}
const NAMED_KEYS = new Set(
  [
    'Plus',
    'Space',
    'Tab',
    'Capslock',
    'Numlock',
    'Scrolllock',
    'Backspace',
    'Delete',
    'Insert',
    'Return',
    'Enter',
    'Up',
    'Down',
    'Left',
    'Right',
    'Home',
    'End',
    'PageUp',
    'PageDown',
    'Escape',
    'Esc',
    'VolumeUp',
    'VolumeDown',
    'VolumeMute',
    'MediaNextTrack',
    'MediaPreviousTrack',
    'MediaStop',
    'MediaPlayPause',
    'PrintScreen',
    'numdec',
    'numadd',
    'numsub',
    'nummult',
    'numdiv',
  ].map((name) => name.toLowerCase()),
)
function isKeyCode(part: string): boolean {
  if (/^[0-9A-Za-z]$/.test(part)) return true
  if (/^F([1-9]|1[0-9]|2[0-4])$/i.test(part)) return true
  if (/^num[0-9]$/i.test(part)) return true
  if (part.length === 1 && ')!@#$%^&*(:;=<,_->.?/~`{]}[|\\\'"'.includes(part)) return true
  return NAMED_KEYS.has(part.toLowerCase())
}

export class Notification extends EventEmitter {
  static isSupported(): boolean {
    return true
  }
  private readonly options: unknown
  constructor(options: unknown) {
    super()
    this.options = options
  }
  show(): void {
    record('notification', this.options)
  }
  close(): void {}
}

export const shell = {
  openExternal: async (url: string) => void record('open-external', url),
  openPath: async (path: string) => (record('open-path', path), ''),
  showItemInFolder: (path: string) => record('show-item-in-folder', path),
}

/** The system clipboard: text only, recorded. */
let clipboardText = ''
export const clipboard = {
  writeText: (text: string) => {
    clipboardText = String(text)
    record('clipboard-write', clipboardText)
  },
  readText: () => clipboardText,
}

export const dialog = {
  showErrorBox: (title: string, content: string) => record('error-box', { title, content }),
  showMessageBox: async (...args: unknown[]) => {
    record('message-box', args.at(-1))
    return { response: 0, checkboxChecked: false }
  },
  showMessageBoxSync: (...args: unknown[]) => (record('message-box', args.at(-1)), 0),
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
}

const SAFE_PREFIX = 'standin:'
export const safeStorage = {
  isEncryptionAvailable: () => process.env.CADENCE_STANDIN_SAFESTORAGE !== 'unavailable',
  getSelectedStorageBackend: () => process.env.CADENCE_STANDIN_SAFESTORAGE ?? 'gnome_libsecret',
  encryptString: (plain: string) => Buffer.from(SAFE_PREFIX + Buffer.from(plain).toString('base64')),
  decryptString(cipher: Buffer): string {
    const text = cipher.toString()
    if (!text.startsWith(SAFE_PREFIX))
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.')
    return Buffer.from(text.slice(SAFE_PREFIX.length), 'base64').toString()
  },
}

const display = {
  id: 1,
  bounds: { x: 0, y: 0, width: 1920, height: 1080 },
  workArea: { x: 0, y: 0, width: 1920, height: 1050 },
  scaleFactor: 1,
  rotation: 0,
}
export const screen = Object.assign(new EventEmitter(), {
  getAllDisplays: () => [display],
  getPrimaryDisplay: () => display,
  getDisplayMatching: () => display,
  getDisplayNearestPoint: () => display,
})

const recorded =
  (name: string) =>
  (...args: unknown[]) =>
    record('session', { name, args: args.map((arg) => (typeof arg === 'function' ? 'function' : arg)) })
const defaultSession = {
  setPermissionRequestHandler: recorded('setPermissionRequestHandler'),
  setPermissionCheckHandler: recorded('setPermissionCheckHandler'),
  setDevicePermissionHandler: recorded('setDevicePermissionHandler'),
  webRequest: {
    onHeadersReceived: recorded('webRequest.onHeadersReceived'),
    onBeforeRequest: recorded('webRequest.onBeforeRequest'),
  },
  clearCache: async () => {},
}
// Other partitions (electron-updater downloads in its own) are recorders like the default one.
export const session = {
  defaultSession,
  fromPartition: (partition: string) => ({ ...defaultSession, partition }),
}

/** Electron's `autoUpdater` (macOS and Windows only): electron-updater emits `before-quit-for-update` on it. */
export const autoUpdater = Object.assign(new EventEmitter(), {
  setFeedURL: (options: unknown) => record('auto-updater-feed', options),
  checkForUpdates: () => record('auto-updater-check'),
  quitAndInstall: () => record('auto-updater-quit-and-install'),
})
export { net }

const electron = {
  app,
  BrowserWindow,
  ipcMain,
  protocol,
  utilityProcess,
  nativeImage,
  Menu,
  Tray,
  globalShortcut,
  Notification,
  shell,
  dialog,
  safeStorage,
  screen,
  session,
  net,
  autoUpdater,
}
export default electron
