import { describe, expect, it } from 'vitest'
import {
  DEFAULT_WINDOW,
  loadWindowState,
  saveWindowState,
  WINDOW_STATE_KEY,
} from '@main/core/app/window-state'
import { createMemoryStore } from '@main/core/ports'

const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }]

describe('window state', () => {
  it('remembers size, position and maximised state', () => {
    const store = createMemoryStore()
    saveWindowState(store, { x: 100, y: 80, width: 1000, height: 700 }, true)
    expect(loadWindowState(store, screen)).toEqual({
      x: 100,
      y: 80,
      width: 1000,
      height: 700,
      maximized: true,
    })
  })

  it('uses the default without a saved state', () => {
    expect(loadWindowState(createMemoryStore(), screen)).toEqual(DEFAULT_WINDOW)
  })

  it('drops a position that is off every screen (a monitor was unplugged)', () => {
    const store = createMemoryStore({ [WINDOW_STATE_KEY]: { x: 2500, y: 100, width: 900, height: 600 } })
    expect(loadWindowState(store, screen)).toEqual({ width: 900, height: 600, maximized: false })
  })

  it('clamps odd sizes and ignores garbage', () => {
    const store = createMemoryStore({ [WINDOW_STATE_KEY]: { width: 10, height: 1e9, x: 'a' } })
    expect(loadWindowState(store, screen)).toEqual({ width: 720, height: 16384, maximized: false })
  })
})
