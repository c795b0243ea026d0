import { beforeEach, describe, expect, it, vi } from 'vitest'

const created: Array<{ options: Record<string, unknown>; contents: FakeContents }> = []
const openExternal = vi.fn()

class FakeContents {
  handlers = new Map<string, (...args: unknown[]) => void>()
  openHandler?: (details: { url: string }) => { action: string }
  on(event: string, handler: (...args: unknown[]) => void) {
    this.handlers.set(event, handler)
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.openHandler = handler
  }
}

vi.mock('electron', () => ({
  shell: { openExternal: (url: string) => openExternal(url) },
  BrowserWindow: class {
    webContents = new FakeContents()
    constructor(options: Record<string, unknown>) {
      created.push({ options, contents: this.webContents })
    }
    once() {}
    setMenuBarVisibility() {}
    loadURL() {
      return Promise.resolve()
    }
  },
}))

const { createLoginWindow, createMainWindow, lockDownSession, secureWebPreferences } =
  await import('@main/glue/windows')

describe('createMainWindow', () => {
  beforeEach(() => {
    created.length = 0
    openExternal.mockReset()
  })

  function open() {
    createMainWindow({
      preloadPath: '/app/preload/index.cjs',
      isAppUrl: (url) => url.startsWith('file:///app/renderer/'),
      load: async () => {},
    })
    return created[0]
  }

  it('creates a sandboxed, isolated window without Node', () => {
    const { options } = open()
    expect(options.webPreferences).toMatchObject({
      preload: '/app/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    })
  })

  it('denies navigation away from the app', () => {
    const { contents } = open()
    const navigate = contents.handlers.get('will-navigate')!
    const away = { preventDefault: vi.fn() }
    navigate(away, 'https://evil.example/')
    expect(away.preventDefault).toHaveBeenCalled()
    const inside = { preventDefault: vi.fn() }
    navigate(inside, 'file:///app/renderer/index.html#/settings')
    expect(inside.preventDefault).not.toHaveBeenCalled()
  })

  it('denies new windows and opens http(s) links in the system browser', () => {
    const { contents } = open()
    expect(contents.openHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' })
    expect(openExternal).toHaveBeenCalledWith('https://example.com/')
    expect(contents.openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' })
    expect(openExternal).toHaveBeenCalledTimes(1)
  })
})

describe('createLoginWindow', () => {
  beforeEach(() => (created.length = 0))

  it('is small, not resizable, with the same secure preferences as the main window', () => {
    createLoginWindow({ preloadPath: '/p.cjs', isAppUrl: () => true, load: async () => {} })
    createMainWindow({ preloadPath: '/p.cjs', isAppUrl: () => true, load: async () => {} })
    const [login, main] = created
    expect(login.options).toMatchObject({ width: 400, height: 620, useContentSize: true, resizable: false })
    expect(login.options.webPreferences).toEqual(secureWebPreferences('/p.cjs'))
    expect(main.options.webPreferences).toEqual(secureWebPreferences('/p.cjs'))
    expect(login.contents.openHandler!({ url: 'https://x.example/' })).toEqual({ action: 'deny' })
  })
})

describe('lockDownSession', () => {
  type Check = (
    contents: unknown,
    permission: string,
    origin: string,
    details: { mediaType?: string },
  ) => boolean
  function lockedDown() {
    let request: ((c: unknown, p: string, cb: (ok: boolean) => void) => void) | undefined
    let check: Check | undefined
    let device: (() => boolean) | undefined
    lockDownSession(
      {
        setPermissionRequestHandler: (h: typeof request) => (request = h),
        setPermissionCheckHandler: (h: Check) => (check = h),
        setDevicePermissionHandler: (h: typeof device) => (device = h),
      } as never,
      (url) => url.startsWith('file:///app/'),
    )
    return { request: request!, check: check!, device: device! }
  }
  const page = (url: string) => ({ getURL: () => url })

  it('denies every permission request and device permission', () => {
    const { request, device } = lockedDown()
    const answer = vi.fn()
    request(null, 'media', answer)
    expect(answer).toHaveBeenCalledWith(false)
    expect(device()).toBe(false)
  })

  it('denies every check but our own page seeing its audio devices (to choose the output device)', () => {
    const { check } = lockedDown()
    const app = page('file:///app/index.html#/')
    expect(check(app, 'media', 'file:///', { mediaType: 'audio' })).toBe(true)
    expect(check(app, 'media', 'file:///', { mediaType: 'video' })).toBe(false)
    expect(check(app, 'notifications', 'file:///', {})).toBe(false)
    expect(check(app, 'clipboard-read', 'file:///', {})).toBe(false)
    expect(
      check(page('https://evil.example/'), 'media', 'https://evil.example', { mediaType: 'audio' }),
    ).toBe(false)
    expect(check(null, 'media', 'file:///', { mediaType: 'audio' })).toBe(false)
  })
})
