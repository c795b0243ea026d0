import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { app, BrowserWindow, dialog, session } from 'electron'
import { createCore } from './core'
import type { Core } from './core'
import { createConsoleLogger } from './core/log'
import { createSafeStorageCipher } from './glue/cipher'
import { startBuiltinDataSource } from './glue/data-source'
import type { BuiltinDataSource } from './glue/data-source'
import { registerIpc } from './glue/ipc'
import { createElectronStore } from './glue/store'
import { createMainWindow } from './glue/windows'

/** App lifecycle: wires Electron into the core and holds no decisions of its own. */

const log = createConsoleLogger(app.isPackaged ? 'info' : 'debug')
const rendererDevUrl = process.env.ELECTRON_RENDERER_URL
const rendererIndex = join(import.meta.dirname, '../renderer/index.html')
const appUrlPrefix = rendererDevUrl ?? pathToFileURL(join(import.meta.dirname, '../renderer/')).href
const isAppUrl = (url: string) => url.startsWith(appUrlPrefix)

let mainWindow: BrowserWindow | null = null
let dataSource: BuiltinDataSource | null = null
let core: Core | null = null

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.show()
    mainWindow.focus()
  })
  app.whenReady().then(start, (error) => fatal(error))
}

async function start() {
  // Deny every permission request: playing audio needs none.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))

  dataSource = await startBuiltinDataSource(
    join(import.meta.dirname, 'data-source.js'),
    join(app.getPath('userData'), 'data-source'),
    (code) => log('main').warn('built-in data source exited', { code }),
  )

  core = createCore({
    store: createElectronStore(),
    cipher: createSafeStorageCipher(),
    dataSourceUrl: dataSource.url,
    isTrustedSender: isAppUrl,
    appInfo: { name: app.getName(), version: app.getVersion(), platform: process.platform },
    log,
  })
  registerIpc(core.router, core.events, () => BrowserWindow.getAllWindows())

  mainWindow = createMainWindow({
    preloadPath: join(import.meta.dirname, '../preload/index.cjs'),
    isAppUrl,
    load: (window) => (rendererDevUrl ? window.loadURL(rendererDevUrl) : window.loadFile(rendererIndex)),
  })
  mainWindow.on('closed', () => (mainWindow = null))
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

app.on('will-quit', () => {
  core?.dispose()
  void dataSource?.stop()
})

function fatal(error: unknown) {
  log('main').error('start failed', { error: String(error) })
  dialog.showErrorBox('Cadence could not start', error instanceof Error ? error.message : String(error))
  app.exit(1)
}
