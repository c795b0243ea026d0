import { BrowserWindow, shell } from 'electron'
import type { BrowserWindowConstructorOptions, WebContents } from 'electron'

/** Every window is sandboxed and isolated; only our preload talks to main. */
export function secureWebPreferences(preloadPath: string): BrowserWindowConstructorOptions['webPreferences'] {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
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
}

export interface MainWindowOptions {
  preloadPath: string
  load: (window: BrowserWindow) => Promise<void>
  isAppUrl: (url: string) => boolean
  bounds?: { width: number; height: number; x?: number; y?: number }
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
    show: false,
    backgroundColor: '#111318',
    webPreferences: secureWebPreferences(options.preloadPath),
  })
  lockDownContents(window.webContents, options.isAppUrl)
  window.once('ready-to-show', () => window.show())
  void options.load(window)
  return window
}
