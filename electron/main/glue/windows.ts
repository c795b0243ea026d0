import { BrowserWindow, shell } from 'electron'
import type { BrowserWindowConstructorOptions, Session, WebContents } from 'electron'
import { LOGIN_WINDOW_CONTENT } from '../core'

/** Every window is sandboxed and isolated; only our preload talks to main. */
export function secureWebPreferences(preloadPath: string): BrowserWindowConstructorOptions['webPreferences'] {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    disableBlinkFeatures: 'Auxclick',
    spellcheck: false,
  }
}

/** No navigation away from the app and no new windows; http(s) links open in the system browser. */
export function lockDownContents(contents: WebContents, isAppUrl: (url: string) => boolean): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault()
  })
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault()
  })
  contents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//i.test(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  // A middle click on a link must not open anything either (setWindowOpenHandler covers it too).
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame && !isAppUrl(event.url)) event.preventDefault()
  })
}

/**
 * Every permission request and device permission is denied, and every permission check but one: our own
 * page may see its audio devices. Chromium asks that check ('media', for audio) before it names the output
 * devices in `enumerateDevices()` (ids and labels) and before `AudioContext.setSinkId` may play on one, so
 * without it the output device cannot be chosen. It grants no microphone: `getUserMedia` goes through the
 * request handler, which refuses.
 */
export function lockDownSession(session: Session, isAppUrl: (url: string) => boolean): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(
    (contents, permission, _origin, details) =>
      permission === 'media' && details.mediaType === 'audio' && !!contents && isAppUrl(contents.getURL()),
  )
  session.setDevicePermissionHandler(() => false)
}

export interface MainWindowOptions {
  preloadPath: string
  load: (window: BrowserWindow) => Promise<void>
  isAppUrl: (url: string) => boolean
  bounds?: { width: number; height: number; x?: number; y?: number }
  maximized?: boolean
  /** The window's icon file (Linux and Windows title bars and task switchers; macOS ignores it). */
  icon?: string
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: options.bounds?.width ?? 1200,
    height: options.bounds?.height ?? 780,
    x: options.bounds?.x,
    y: options.bounds?.y,
    minWidth: 720,
    minHeight: 480,
    title: 'Cadence',
    icon: options.icon,
    show: false,
    backgroundColor: '#111318',
    webPreferences: {
      // Written out in each window (not built by a helper) so static audits see them; the glue test
      // checks both windows against secureWebPreferences().
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      disableBlinkFeatures: 'Auxclick',
      spellcheck: false,
    },
  })
  lockDownContents(window.webContents, options.isAppUrl)
  window.once('ready-to-show', () => {
    if (options.maximized) window.maximize()
    window.show()
  })
  void options.load(window)
  return window
}

export interface LoginWindowOptions {
  preloadPath: string
  /** Loads `index.html#/login`. */
  load: (window: BrowserWindow) => Promise<void>
  isAppUrl: (url: string) => boolean
  parent?: BrowserWindow
  icon?: string
}

/** The small QR login window: same secure preferences as the main window. */
export function createLoginWindow(options: LoginWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    // The size of the page, not of the frame around it: with the OS title bar counted in, the scanned
    // state's card was cut off at the bottom.
    useContentSize: true,
    width: LOGIN_WINDOW_CONTENT.width,
    height: LOGIN_WINDOW_CONTENT.height,
    resizable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    title: 'Sign in — Cadence',
    icon: options.icon,
    show: false,
    parent: options.parent,
    backgroundColor: '#111318',
    webPreferences: {
      // Written out in each window (not built by a helper) so static audits see them; the glue test
      // checks both windows against secureWebPreferences().
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      disableBlinkFeatures: 'Auxclick',
      spellcheck: false,
    },
  })
  window.setMenuBarVisibility(false)
  lockDownContents(window.webContents, options.isAppUrl)
  window.once('ready-to-show', () => window.show())
  void options.load(window)
  return window
}
