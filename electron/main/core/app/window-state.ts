import type { KeyValueStore } from '../ports'

/** The main window's size and position, remembered in the store and checked against the screens. */

export const WINDOW_STATE_KEY = 'windowState'
export interface Rect {
  x: number
  y: number
  width: number
  height: number
}
export interface WindowState {
  width: number
  height: number
  x?: number
  y?: number
  maximized: boolean
}

export const DEFAULT_WINDOW: WindowState = { width: 1200, height: 780, maximized: false }

/** The login page's size (content, not frame): the QR card fits it in every state, scanned included. */
export const LOGIN_WINDOW_CONTENT = { width: 400, height: 620 } as const
const MIN = { width: 720, height: 480 }
const MAX_SIDE = 16384

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

/** The saved state, or the default; a position is kept only if enough of the window is on a screen. */
export function loadWindowState(store: KeyValueStore, workAreas: Rect[]): WindowState {
  const raw = store.get<Partial<WindowState>>(WINDOW_STATE_KEY)
  if (!raw || typeof raw !== 'object') return { ...DEFAULT_WINDOW }
  const width = finite(raw.width)
    ? Math.min(Math.max(Math.round(raw.width), MIN.width), MAX_SIDE)
    : DEFAULT_WINDOW.width
  const height = finite(raw.height)
    ? Math.min(Math.max(Math.round(raw.height), MIN.height), MAX_SIDE)
    : DEFAULT_WINDOW.height
  const state: WindowState = { width, height, maximized: raw.maximized === true }
  if (finite(raw.x) && finite(raw.y)) {
    const rect = { x: Math.round(raw.x), y: Math.round(raw.y), width, height }
    if (workAreas.some((area) => visibleEnough(rect, area))) {
      state.x = rect.x
      state.y = rect.y
    }
  }
  return state
}

export function saveWindowState(store: KeyValueStore, bounds: Rect, maximized: boolean): void {
  if (![bounds.x, bounds.y, bounds.width, bounds.height].every(finite)) return
  store.set(WINDOW_STATE_KEY, { ...bounds, maximized } satisfies WindowState)
}

/** At least 100×50 px of the window (its title bar area) lies on the screen. */
function visibleEnough(rect: Rect, area: Rect): boolean {
  const w = Math.min(rect.x + rect.width, area.x + area.width) - Math.max(rect.x, area.x)
  const h = Math.min(rect.y + 50, area.y + area.height) - Math.max(rect.y, area.y)
  return w >= 100 && h >= 50
}
