import { BrowserWindow, Notification, nativeImage, screen } from 'electron'
import type { Rectangle } from 'electron'
import type { ListenPorts } from '../core'
import { lockDownContents } from './windows'

/**
 * Glue for the listening features: the desktop lyrics window, the main window as the mini player, OS
 * notifications (the desktop lyrics shortcut is one of the global shortcuts, glue/shortcuts.ts). Electron objects only; the core decides when and where.
 */

export interface ListenGlueOptions {
  preloadPath: string
  isAppUrl: (url: string) => boolean
  /** Loads the renderer at a route (`/desktop-lyrics`). */
  loadRoute: (window: BrowserWindow, hash: string) => Promise<void>
  mainWindow: () => BrowserWindow | null
  /** The desktop lyrics window was closed by something other than the setting. */
  onLyricsClosed: () => void
}

export function createListenPorts(options: ListenGlueOptions): ListenPorts {
  let lyrics: BrowserWindow | null = null
  let closing = false
  let normal: { bounds: Rectangle; maximized: boolean; minSize: number[] } | null = null

  return {
    desktopLyrics: {
      open(bounds) {
        if (lyrics && !lyrics.isDestroyed()) return void lyrics.showInactive()
        const window = new BrowserWindow({
          ...bounds,
          transparent: true,
          frame: false,
          alwaysOnTop: true,
          skipTaskbar: true,
          resizable: true,
          minimizable: false,
          maximizable: false,
          fullscreenable: false,
          hasShadow: false,
          focusable: true,
          show: false,
          title: 'Cadence — lyrics',
          backgroundColor: '#00000000',
          webPreferences: {
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
        // Above full-screen windows too, where the platform allows it.
        window.setAlwaysOnTop(true, 'screen-saver')
        window.setVisibleOnAllWorkspaces(true)
        lockDownContents(window.webContents, options.isAppUrl)
        window.once('ready-to-show', () => window.showInactive())
        window.on('closed', () => {
          if (lyrics === window) lyrics = null
          if (!closing) options.onLyricsClosed()
        })
        lyrics = window
        void options.loadRoute(window, '/desktop-lyrics')
      },
      close() {
        const open = lyrics
        lyrics = null
        if (!open || open.isDestroyed()) return
        closing = true
        open.close()
        closing = false
      },
      setLocked(locked) {
        if (!lyrics || lyrics.isDestroyed()) return
        // Locked: clicks reach the windows below (moves still arrive, so hovering can show the lock).
        lyrics.setIgnoreMouseEvents(locked, { forward: true })
        lyrics.setResizable(!locked)
      },
    },
    miniPlayer: {
      workArea() {
        const window = options.mainWindow()
        if (!window) return undefined
        return screen.getDisplayMatching(window.getBounds()).workArea
      },
      enter(bounds) {
        const window = options.mainWindow()
        if (!window) return
        normal = {
          bounds: window.getNormalBounds(),
          maximized: window.isMaximized(),
          minSize: window.getMinimumSize(),
        }
        if (normal.maximized) window.unmaximize()
        window.setMinimumSize(bounds.width, bounds.height)
        // The content is the mini player's size; the frame (if the platform draws one) comes on top.
        window.setContentBounds(bounds)
        window.setResizable(false)
        window.setMaximizable(false)
        window.setAlwaysOnTop(true, 'floating')
        window.show()
      },
      leave() {
        const window = options.mainWindow()
        const saved = normal
        normal = null
        if (!window || !saved) return
        window.setAlwaysOnTop(false)
        window.setResizable(true)
        window.setMaximizable(true)
        window.setMinimumSize(saved.minSize[0] ?? 0, saved.minSize[1] ?? 0)
        window.setBounds(saved.bounds)
        if (saved.maximized) window.maximize()
        window.focus()
      },
    },
    notifier: {
      supported: () => Notification.isSupported(),
      appFocused: () => BrowserWindow.getFocusedWindow() !== null,
      show({ title, body, icon }) {
        const image = icon ? nativeImage.createFromBuffer(Buffer.from(icon)) : undefined
        new Notification({
          title,
          body,
          icon: image && !image.isEmpty() ? image : undefined,
          silent: true,
        }).show()
      },
    },
  }
}
