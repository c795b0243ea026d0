import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { app, BrowserWindow, dialog, screen, session, shell } from 'electron'
import { createCore } from './core'
import type { Core } from './core'
import { loadWindowState, saveWindowState } from './core/app/window-state'
import { createConsoleLogger } from './core/log'
import { realTimers } from './core/ports'
import { superviseDataSource } from './core/sources/supervisor'
import type { TrayAction } from './core/tray/menu'
import { createSafeStorageCipher } from './glue/cipher'
import { startBuiltinDataSource } from './glue/data-source'
import { registerIpc } from './glue/ipc'
import { registerMediaKeys } from './glue/shortcuts'
import { createElectronStore } from './glue/store'
import { createAppTray } from './glue/tray'
import { createLoginWindow, createMainWindow, lockDownContents, lockDownSession } from './glue/windows'

/** App lifecycle: wires Electron into the core and holds no decisions of its own. */

const log = createConsoleLogger(app.isPackaged ? 'info' : 'debug')
const rendererDevUrl = process.env.ELECTRON_RENDERER_URL
const rendererIndex = join(import.meta.dirname, '../renderer/index.html')
const preloadPath = join(import.meta.dirname, '../preload/index.cjs')
const appUrlPrefix = rendererDevUrl ?? pathToFileURL(join(import.meta.dirname, '../renderer/')).href
const isAppUrl = (url: string) => url.startsWith(appUrlPrefix)
const loadRoute = (window: BrowserWindow, hash: string) =>
  rendererDevUrl ? window.loadURL(`${rendererDevUrl}#${hash}`) : window.loadFile(rendererIndex, { hash })

let mainWindow: BrowserWindow | null = null
let loginWindow: BrowserWindow | null = null
let core: Core | null = null
let tray: ReturnType<typeof createAppTray> | null = null
let supervisor: ReturnType<typeof superviseDataSource> | null = null
let unregisterKeys: (() => void) | null = null

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', showMainWindow)
  app.on('web-contents-created', (_event, contents) => lockDownContents(contents, isAppUrl))
  app.whenReady().then(start, (error) => fatal(error))
}

function showMainWindow() {
  if (!mainWindow) return
  if (mainWindow.isMinimized()) mainWindow.restore()
  mainWindow.show()
  mainWindow.focus()
  tray?.refresh()
}

function onTrayAction(action: TrayAction) {
  if (action.type === 'command') core?.playerCommand(action.command)
  else if (action.type === 'quit') app.quit()
  else if (mainWindow?.isVisible()) {
    mainWindow.hide()
    tray?.refresh()
  } else showMainWindow()
}

async function start() {
  lockDownSession(session.defaultSession)
  const store = createElectronStore()

  core = createCore({
    store,
    cipher: createSafeStorageCipher(),
    isTrustedSender: isAppUrl,
    appInfo: { name: app.getName(), version: app.getVersion(), platform: process.platform },
    log,
    windows: {
      openLogin() {
        if (loginWindow) return void loginWindow.focus()
        loginWindow = createLoginWindow({
          preloadPath,
          isAppUrl,
          parent: mainWindow ?? undefined,
          load: (window) => loadRoute(window, '/login'),
        })
        const opened = loginWindow
        opened.on('closed', () => {
          if (loginWindow === opened) {
            loginWindow = null
            core?.loginWindowClosed()
          }
        })
      },
      closeLogin() {
        const open = loginWindow
        loginWindow = null
        if (open && !open.isDestroyed()) open.close()
      },
    },
    openExternal: (url) => shell.openExternal(url),
    onPlayerState: (state) => tray?.update(state),
  })
  registerIpc(core.router, core.events, () => BrowserWindow.getAllWindows())

  const windowState = loadWindowState(
    store,
    screen.getAllDisplays().map((display) => display.workArea),
  )
  mainWindow = createMainWindow({
    preloadPath,
    isAppUrl,
    bounds: windowState,
    maximized: windowState.maximized,
    load: (window) => loadRoute(window, '/'),
  })
  const window = mainWindow
  const remember = () => {
    if (!window.isDestroyed()) {
      saveWindowState(store, window.getNormalBounds(), window.isMaximized())
    }
  }
  window.on('resized', remember)
  window.on('moved', remember)
  window.on('close', remember)
  window.on('show', () => tray?.refresh())
  window.on('hide', () => tray?.refresh())
  window.on('closed', () => (mainWindow = null))

  try {
    tray = createAppTray({
      iconPath: join(import.meta.dirname, '../../resources/icon.png'),
      onAction: onTrayAction,
      isWindowVisible: () => mainWindow?.isVisible() ?? false,
      onClick: showMainWindow,
    })
  } catch (error) {
    log('main').warn('no tray on this desktop', { error: String(error) })
  }
  unregisterKeys = registerMediaKeys((command) => core?.playerCommand(command), log('media-keys'))

  supervisor = superviseDataSource({
    start: (onExit) =>
      startBuiltinDataSource(
        join(import.meta.dirname, 'data-source.js'),
        join(app.getPath('userData'), 'data-source'),
        onExit,
      ),
    onState: (url, state) => core?.setBuiltin(url, state),
    timers: realTimers,
    log: log('data-source'),
  })
  await supervisor.start()
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

app.on('will-quit', () => {
  unregisterKeys?.()
  tray?.destroy()
  core?.dispose()
  void supervisor?.stop()
})

function fatal(error: unknown) {
  log('main').error('start failed', { error: String(error) })
  dialog.showErrorBox('Cadence could not start', error instanceof Error ? error.message : String(error))
  app.exit(1)
}
