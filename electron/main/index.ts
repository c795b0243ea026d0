import { randomInt } from 'node:crypto'
import { networkInterfaces } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { app, BrowserWindow, clipboard, dialog, screen, session, shell } from 'electron'
import {
  createConsoleLogger,
  createCore,
  createTaskbar,
  desktopAction,
  isAppUrlFor,
  loadWindowState,
  realTimers,
  saveWindowState,
  reachableAddresses,
} from './core'
import type { Core, TrayAction } from './core'
import { createSafeStorageCipher } from './glue/cipher'
import { lastfmKeys } from './glue/lastfm-keys'
import { startBuiltinDataSource } from './glue/data-source'
import { registerIpc } from './glue/ipc'
import { handleMediaScheme, registerMediaScheme } from './glue/media'
import { openElectronStore } from './glue/store'
import { createAppTray } from './glue/tray'
import { createTaskbarPorts } from './glue/taskbar'
import { createElectronUpdater } from './glue/updates'
import { createListenPorts } from './glue/listen'
import { globalShortcutPort } from './glue/shortcuts'
import { createLoginWindow, createMainWindow, lockDownContents, lockDownSession } from './glue/windows'

/** App lifecycle: wires Electron into the core and holds no decisions of its own. */

const APP_ID = 'org.cadence.player'
const log = createConsoleLogger(app.isPackaged ? 'info' : 'debug')
// The dev server's URL is honoured only in development: a packaged app always loads its own files.
const rendererDevUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL
const rendererDir = join(import.meta.dirname, '../renderer')
const rendererIndex = join(rendererDir, 'index.html')
const preloadPath = join(import.meta.dirname, '../preload/index.cjs')
// Packaged with the app (electron-builder.yml `files`, inside app.asar, which Electron's nativeImage
// reads), so the tray and the windows have their icon when installed too.
const appIconPath = join(import.meta.dirname, '../../resources/icon.png')
const taskbarIconDir = join(import.meta.dirname, '../../resources/taskbar')
const isAppUrl = isAppUrlFor(rendererDevUrl ?? pathToFileURL(rendererDir + '/').href)
const loadRoute = (window: BrowserWindow, hash: string) =>
  rendererDevUrl ? window.loadURL(`${rendererDevUrl}#${hash}`) : window.loadFile(rendererIndex, { hash })

/** `frame-ancestors` is ignored in a meta tag: it is sent as a response header. */
const FRAME_CSP = "frame-ancestors 'none'"

let mainWindow: BrowserWindow | null = null
let loginWindow: BrowserWindow | null = null
let core: Core | null = null
let tray: ReturnType<typeof createAppTray> | null = null
let store: ReturnType<typeof openElectronStore>['store'] | null = null
let listenPorts: ReturnType<typeof createListenPorts> | null = null
let taskbar: ReturnType<typeof createTaskbar> | null = null

// A development build keeps its own settings, library and lock, apart from an installed Cadence.
if (!app.isPackaged) app.setPath('userData', `${app.getPath('userData')}-dev`)
// Windows: notifications and taskbar grouping belong to the installed app's id.
if (process.platform === 'win32') app.setAppUserModelId(APP_ID)

// Before `ready`, as Electron requires: the scheme main serves the songs' audio on.
registerMediaScheme()

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  // A desktop entry's action (`cadence --next`) reaches the running player; any other second start shows it.
  app.on('second-instance', (_event, argv) => {
    const command = desktopAction(argv)
    if (command) core?.playerCommand(command)
    else showMainWindow()
  })
  app.on('web-contents-created', (_event, contents) => lockDownContents(contents, isAppUrl))
  // macOS: clicking the dock icon with no window open opens one again.
  app.on('activate', () => (mainWindow ? showMainWindow() : openMainWindow()))
  // Anything thrown while starting ends in one clear message, never a dead process.
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => fatal(error))
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
  else if (action.type === 'toggle-desktop-lyrics') core?.listen.desktopLyrics.toggle()
  else if (action.type === 'install-update') core?.updates.install()
  else if (action.type === 'toggle-private-session') core?.history.setPrivate(!core.history.state().private)
  else if (mainWindow?.isVisible()) {
    mainWindow.hide()
    tray?.refresh()
  } else showMainWindow()
}

function openMainWindow() {
  if (!store) return
  const saved = store
  const windowState = loadWindowState(
    saved,
    screen.getAllDisplays().map((display) => display.workArea),
  )
  mainWindow = createMainWindow({
    preloadPath,
    isAppUrl,
    bounds: windowState,
    maximized: windowState.maximized,
    icon: appIconPath,
    load: (window) => loadRoute(window, '/'),
  })
  const window = mainWindow
  const remember = () => {
    // The mini player's size and place are not the window's.
    if (!window.isDestroyed() && !core?.listen.miniPlayer.isMini()) {
      saveWindowState(saved, window.getNormalBounds(), window.isMaximized())
    }
  }
  // `move` and `resize` fire on every platform (`moved`/`resized` only on macOS and Windows): saved
  // half a second after the last one, and on close.
  let pending: ReturnType<typeof setTimeout> | undefined
  const rememberSoon = () => {
    clearTimeout(pending)
    pending = setTimeout(remember, 500)
  }
  window.on('resize', rememberSoon)
  window.on('move', rememberSoon)
  window.on('maximize', rememberSoon)
  window.on('unmaximize', rememberSoon)
  window.on('close', () => {
    clearTimeout(pending)
    remember()
  })
  window.on('show', () => {
    tray?.refresh()
    taskbar?.refresh()
  })
  // Back from another app: an offline data source is asked at once whether it is back.
  window.on('focus', () => void core?.windowFocused())
  window.on('hide', () => tray?.refresh())
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null
    // The desktop lyrics go with the main window (else the app would not quit on Linux and Windows).
    listenPorts?.desktopLyrics?.close()
  })
}

async function start() {
  lockDownSession(session.defaultSession, isAppUrl)
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [FRAME_CSP] },
    })
  })
  const opened = openElectronStore()
  store = opened.store

  // Closes at quit or with the main window are not the user turning the desktop lyrics off.
  let quitting = false
  // The first quit waits (briefly) for the renderer to save the queue and position, then quits for real.
  let sessionSavedForQuit = false
  app.on('before-quit', (event) => {
    quitting = true
    if (sessionSavedForQuit || !core) return
    event.preventDefault()
    sessionSavedForQuit = true
    void core.beforeQuit().finally(() => app.quit())
  })
  listenPorts = createListenPorts({
    preloadPath,
    isAppUrl,
    loadRoute,
    mainWindow: () => mainWindow,
    onLyricsClosed: () => !quitting && core?.listen.desktopLyrics.closed(),
  })
  core = createCore({
    store,
    cipher: createSafeStorageCipher(),
    // The core picks where the built-in data source listens and its owner passphrase (loopback and a
    // passphrase for this run, or the network and a kept one when the user lets a phone sign in).
    spawnBuiltin: (launch, onExit, onLibrary) =>
      startBuiltinDataSource(
        join(import.meta.dirname, 'data-source.js'),
        join(app.getPath('userData'), 'data-source'),
        launch,
        onExit,
        onLibrary,
      ),
    // Settings → Music on this computer: the system's folder picker, modal to the main window.
    pickFolder: async () => {
      const options = { properties: ['openDirectory' as const] }
      const parent = mainWindow && !mainWindow.isDestroyed() ? mainWindow : undefined
      const { canceled, filePaths } = await (parent
        ? dialog.showOpenDialog(parent, options)
        : dialog.showOpenDialog(options))
      return canceled ? undefined : filePaths[0]
    },
    networkAddresses: () => reachableAddresses(networkInterfaces()),
    mediaDir: join(app.getPath('userData'), 'media-cache'),
    historyPath: join(app.getPath('userData'), 'history.sqlite'),
    scrobblePath: join(app.getPath('userData'), 'scrobble-queue.sqlite'),
    lastfm: lastfmKeys(),
    // The project's Discord application id, set at build time (MAIN_VITE_DISCORD_APP_ID; docs/integrations.md).
    discord: {
      appId: import.meta.env.MAIN_VITE_DISCORD_APP_ID,
    },
    lrclib: { dir: join(app.getPath('userData'), 'lrclib') },
    randomInt: (max) => randomInt(max),
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
          icon: appIconPath,
          load: (window) => loadRoute(window, '/login'),
        })
        const login = loginWindow
        login.on('closed', () => {
          if (loginWindow === login) {
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
    // Main's own dialog, modal to the main window: the renderer cannot draw or answer it.
    confirm: async (request) => {
      const options = {
        type: 'question' as const,
        title: request.title,
        message: request.message,
        detail: request.detail,
        buttons: [request.confirmLabel, 'Cancel'],
        defaultId: 1,
        cancelId: 1,
        noLink: true,
      }
      const parent = mainWindow && !mainWindow.isDestroyed() ? mainWindow : undefined
      const { response } = await (parent
        ? dialog.showMessageBox(parent, options)
        : dialog.showMessageBox(options))
      return response === 0
    },
    copyText: (text) => clipboard.writeText(text),
    onPlayerState: (state) => {
      tray?.update(state)
      taskbar?.update(state)
    },
    listen: listenPorts,
    shortcuts: globalShortcutPort,
    updater: await createElectronUpdater(log('updates')),
  })
  taskbar = createTaskbar({
    platform: process.platform,
    ports: createTaskbarPorts({
      iconDir: taskbarIconDir,
      mainWindow: () => mainWindow,
      onCommand: (command) => core?.playerCommand(command),
    }),
    language: () => core?.settings.get().language ?? 'en',
    now: () => Date.now(),
    timers: realTimers,
  })
  taskbar.refresh()
  core.settings.onChange(() => {
    tray?.refresh()
    taskbar?.refresh()
  })
  core.events.subscribe(
    (event) => (event === 'updates:changed' || event === 'history:changed') && tray?.refresh(),
  )
  handleMediaScheme(core.media)
  registerIpc(core.router, core.events, () => BrowserWindow.getAllWindows())
  openMainWindow()

  if (opened.recovered) {
    log('main').warn('the settings file was damaged; started with defaults', { file: opened.recovered })
    void dialog.showMessageBox({
      type: 'warning',
      title: 'Cadence',
      message: 'Your settings could not be read, so Cadence started with its defaults.',
      detail: `The damaged file was kept as ${opened.recovered}.`,
    })
  }

  try {
    tray = createAppTray({
      iconPath: appIconPath,
      onAction: onTrayAction,
      isWindowVisible: () => mainWindow?.isVisible() ?? false,
      isDesktopLyricsShown: () => core?.listen.desktopLyrics.isShown() ?? false,
      language: () => core?.settings.get().language ?? 'en',
      onClick: showMainWindow,
      isUpdateReady: () => core?.updates.state().status === 'ready',
      isPrivateSession: () => core?.history.state().private ?? false,
    })
  } catch (error) {
    log('main').warn('no tray on this desktop', { error: String(error) })
  }
  // The global shortcuts chosen in Settings (by default only the desktop lyrics' Ctrl/Cmd+Alt+L). Media
  // keys reach the player through the renderer's media session (the OS media controls) unless a person
  // binds them here.
  core.shortcuts.start()
  core.listen.desktopLyrics.start()
  // An installed app asks its update feed now and every 6 hours (unless the setting is off).
  core.updates.start()

  await core.builtin.start()
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

app.on('will-quit', () => {
  tray?.destroy()
  taskbar?.dispose()
  void core?.dispose()
  void core?.builtin.stop()
})

function fatal(error: unknown) {
  log('main').error('start failed', { error: String(error) })
  dialog.showErrorBox('Cadence could not start', error instanceof Error ? error.message : String(error))
  void core?.builtin.stop()
  app.exit(1)
}
