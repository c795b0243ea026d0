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
    loadURL() {
      return Promise.resolve()
    }
  },
}))

const { createMainWindow } = await import('@main/glue/windows')

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
