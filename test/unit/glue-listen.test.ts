import { beforeEach, describe, expect, it, vi } from 'vitest'

/** The glue for the listening windows against a recording stand-in for Electron's window API. */

class FakeWindow {
  static created: FakeWindow[] = []
  static focused: FakeWindow | null = null
  calls: Array<[string, ...unknown[]]> = []
  handlers = new Map<string, () => void>()
  webContents = { on() {}, setWindowOpenHandler() {} }
  destroyed = false
  bounds = { x: 10, y: 20, width: 1200, height: 780 }
  constructor(readonly options: Record<string, unknown>) {
    FakeWindow.created.push(this)
  }
  static getFocusedWindow = () => FakeWindow.focused
  private record =
    (name: string) =>
    (...args: unknown[]) =>
      void this.calls.push([name, ...args])
  setAlwaysOnTop = this.record('setAlwaysOnTop')
  setVisibleOnAllWorkspaces = this.record('setVisibleOnAllWorkspaces')
  setIgnoreMouseEvents = this.record('setIgnoreMouseEvents')
  setResizable = this.record('setResizable')
  setMaximizable = this.record('setMaximizable')
  setMinimumSize = this.record('setMinimumSize')
  setBounds = this.record('setBounds')
  setContentBounds = this.record('setContentBounds')
  showInactive = this.record('showInactive')
  show = this.record('show')
  focus = this.record('focus')
  maximize = this.record('maximize')
  unmaximize = this.record('unmaximize')
  once(event: string, handler: () => void) {
    this.handlers.set(event, handler)
  }
  on(event: string, handler: () => void) {
    this.handlers.set(event, handler)
  }
  close() {
    this.destroyed = true
    this.handlers.get('closed')?.()
  }
  isDestroyed = () => this.destroyed
  isMaximized = () => false
  getBounds = () => this.bounds
  getNormalBounds = () => this.bounds
  getMinimumSize = () => [720, 480]
}

const shown: unknown[] = []
vi.mock('electron', () => ({
  BrowserWindow: FakeWindow,
  shell: { openExternal: vi.fn() },
  screen: { getDisplayMatching: () => ({ workArea: { x: 0, y: 0, width: 1920, height: 1040 } }) },
  nativeImage: { createFromBuffer: (buffer: Buffer) => ({ isEmpty: () => buffer.length === 0, buffer }) },
  Notification: class {
    static isSupported = () => true
    constructor(readonly options: unknown) {}
    show() {
      shown.push(this.options)
    }
  },
  globalShortcut: { register: () => true, unregister: () => undefined },
}))

const { createListenPorts } = await import('@main/glue/listen')

function ports() {
  const main = new FakeWindow({})
  const loaded: string[] = []
  const onLyricsClosed = vi.fn()
  const listen = createListenPorts({
    preloadPath: '/app/preload/index.cjs',
    isAppUrl: () => true,
    loadRoute: async (_window, hash) => void loaded.push(hash),
    mainWindow: () => main as never,
    onLyricsClosed,
  })
  return { listen, main, loaded, onLyricsClosed }
}

beforeEach(() => {
  FakeWindow.created.length = 0
  shown.length = 0
})

describe('listen glue', () => {
  it('opens the desktop lyrics as a transparent, frameless, always-on-top, sandboxed window', () => {
    const { listen, loaded } = ports()
    listen.desktopLyrics!.open({ x: 510, y: 800, width: 900, height: 174 })
    const window = FakeWindow.created.at(-1)!
    expect(window.options).toMatchObject({
      x: 510,
      width: 900,
      transparent: true,
      frame: false,
      alwaysOnTop: true,
      skipTaskbar: true,
      webPreferences: {
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        preload: '/app/preload/index.cjs',
      },
    })
    expect(loaded).toEqual(['/desktop-lyrics'])
    expect(window.calls).toContainEqual(['setAlwaysOnTop', true, 'screen-saver'])
  })

  it('makes the lyrics click-through when locked, and reports a close it did not ask for', () => {
    const { listen, onLyricsClosed } = ports()
    listen.desktopLyrics!.open({ x: 0, y: 0, width: 900, height: 174 })
    const window = FakeWindow.created.at(-1)!
    listen.desktopLyrics!.setLocked(true)
    expect(window.calls).toContainEqual(['setIgnoreMouseEvents', true, { forward: true }])
    listen.desktopLyrics!.setLocked(false)
    expect(window.calls).toContainEqual(['setIgnoreMouseEvents', false, { forward: true }])
    listen.desktopLyrics!.close()
    expect(onLyricsClosed).not.toHaveBeenCalled()
    listen.desktopLyrics!.open({ x: 0, y: 0, width: 900, height: 174 })
    FakeWindow.created.at(-1)!.close()
    expect(onLyricsClosed).toHaveBeenCalledTimes(1)
  })

  it('turns the main window into the mini player (small, on top, fixed size) and restores it', () => {
    const { listen, main } = ports()
    expect(listen.miniPlayer!.workArea()).toEqual({ x: 0, y: 0, width: 1920, height: 1040 })
    const mini = { x: 1516, y: 24, width: 380, height: 112 }
    listen.miniPlayer!.enter(mini)
    expect(main.calls).toEqual(
      expect.arrayContaining([
        ['setMinimumSize', 380, 112],
        ['setContentBounds', mini],
        ['setResizable', false],
        ['setAlwaysOnTop', true, 'floating'],
      ]),
    )
    main.calls.length = 0
    listen.miniPlayer!.leave()
    expect(main.calls).toEqual(
      expect.arrayContaining([
        ['setAlwaysOnTop', false],
        ['setResizable', true],
        ['setMinimumSize', 720, 480],
        ['setBounds', { x: 10, y: 20, width: 1200, height: 780 }],
      ]),
    )
  })

  it('shows a notification with the cover as its icon', () => {
    const { listen } = ports()
    listen.notifier!.show({ title: 'Song', body: 'Artist', icon: new Uint8Array([1, 2, 3]) })
    expect(shown[0]).toMatchObject({ title: 'Song', body: 'Artist', silent: true })
    expect((shown[0] as { icon: { buffer: Buffer } }).icon.buffer).toEqual(Buffer.from([1, 2, 3]))
    expect(listen.notifier!.appFocused()).toBe(false)
  })
})
