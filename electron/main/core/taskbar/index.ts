import type { PlayerCommandName, PlayerState } from '@shared/ipc/contract'
import type { Language } from '@shared/settings'
import type { Timers } from '../ports'
import { nowPlayingItem, trayLabels } from '../tray/menu'
import type { TrayMenuItem } from '../tray/menu'

/**
 * The taskbar, the dock and the desktop entry, as decisions: Windows' thumbnail-toolbar buttons and
 * taskbar progress, macOS' dock menu, and the Linux desktop entry's actions that reach the running
 * instance as `second-instance` arguments. The glue (glue/taskbar.ts) turns these into Electron calls.
 */

export type ThumbarIcon = 'previous' | 'play' | 'pause' | 'next' | 'like' | 'liked'
export interface ThumbarButton {
  id: 'previous' | 'play-pause' | 'next' | 'like'
  /** The icon's file name in resources/taskbar (`<icon>.png`). */
  icon: ThumbarIcon
  tooltip: string
  enabled: boolean
  command: PlayerCommandName
}
/** `setProgressBar`'s value (a fraction; -1 removes the bar) and mode. */
export interface TaskbarProgress {
  value: number
  mode: 'none' | 'normal' | 'paused'
}

/** Previous, play/pause, next, like: the thumbnail toolbar's buttons (at most 7, in this order for good). */
export function thumbarButtons(state: PlayerState | null, language?: Language): ThumbarButton[] {
  const l = trayLabels(language)
  const song = state?.song ?? null
  const playing = !!state?.playing
  const has = song !== null
  return [
    { id: 'previous', icon: 'previous', tooltip: l.previous, enabled: has, command: 'previous' },
    {
      id: 'play-pause',
      icon: playing ? 'pause' : 'play',
      tooltip: playing ? l.pause : l.play,
      enabled: has,
      command: playing ? 'pause' : 'play',
    },
    { id: 'next', icon: 'next', tooltip: l.next, enabled: has, command: 'next' },
    {
      id: 'like',
      icon: song?.liked ? 'liked' : 'like',
      tooltip: song?.liked ? l.unlike : l.like,
      enabled: has,
      command: song?.liked ? 'unlike' : 'like',
    },
  ]
}

/**
 * The taskbar progress: the song's fraction while playing (its position moved on by the time since the
 * state was reported, at the playback speed), the same fraction in the 'paused' mode when paused, and no
 * bar when nothing plays or the length is not known.
 */
export function taskbarProgress(state: PlayerState | null, elapsedMs = 0): TaskbarProgress {
  const progress = state?.progress
  if (!state?.song || !progress || !(progress.durationMs > 0)) return { value: -1, mode: 'none' }
  const moved = state.playing ? Math.max(0, elapsedMs) * progress.speed : 0
  const fraction = Math.min(1, Math.max(0, (progress.positionMs + moved) / progress.durationMs))
  return { value: Math.round(fraction * 1000) / 1000, mode: state.playing ? 'normal' : 'paused' }
}

/** The dock menu (macOS): the now-playing line (disabled), play/pause, next, previous, like. */
export function dockMenu(state: PlayerState | null, language?: Language): TrayMenuItem[] {
  const l = trayLabels(language)
  const song = state?.song ?? null
  const has = song !== null
  return [
    nowPlayingItem(state, l),
    { type: 'separator' },
    {
      type: 'normal',
      id: 'play-pause',
      label: state?.playing ? l.pause : l.play,
      enabled: has,
      action: { type: 'command', command: state?.playing ? 'pause' : 'play' },
    },
    { type: 'normal', id: 'next', label: l.next, enabled: has, action: { type: 'command', command: 'next' } },
    {
      type: 'normal',
      id: 'previous',
      label: l.previous,
      enabled: has,
      action: { type: 'command', command: 'previous' },
    },
    {
      type: 'normal',
      id: 'like',
      label: song?.liked ? l.unlike : l.like,
      enabled: has,
      action: { type: 'command', command: song?.liked ? 'unlike' : 'like' },
    },
  ]
}

/**
 * The desktop entry's actions (electron-builder.yml `linux.desktop.desktopActions`): each runs
 * `cadence <flag>`, which reaches the running instance as `second-instance` arguments.
 */
export const DESKTOP_ACTION_FLAGS = {
  '--play-pause': 'toggle',
  '--next': 'next',
  '--previous': 'previous',
} as const satisfies Record<string, PlayerCommandName>

/** The player command a second start's arguments ask for, or null (then the window is shown). */
export function desktopAction(argv: readonly string[]): PlayerCommandName | null {
  for (const arg of argv) {
    if (Object.hasOwn(DESKTOP_ACTION_FLAGS, arg))
      return DESKTOP_ACTION_FLAGS[arg as keyof typeof DESKTOP_ACTION_FLAGS]
  }
  return null
}

export interface TaskbarPorts {
  /** Windows: sets the thumbnail toolbar; false when the window cannot take it now (hidden, not shown yet). */
  setThumbarButtons?(buttons: ThumbarButton[]): boolean
  /** Windows: the taskbar button's progress. */
  setProgress?(progress: TaskbarProgress): void
  /** macOS: the dock icon's menu. */
  setDockMenu?(items: TrayMenuItem[]): void
}

/** How often the taskbar progress moves on while a song plays. */
export const PROGRESS_TICK_MS = 1000

/**
 * Keeps the taskbar or dock in step with the player. `platform` is `process.platform`: Windows gets the
 * thumbnail toolbar and the progress, macOS the dock menu; Linux has neither (its desktop actions come
 * through `desktopAction`).
 */
export function createTaskbar(deps: {
  platform: string
  ports: TaskbarPorts
  language: () => Language
  now: () => number
  timers: Timers
}) {
  const windows = deps.platform === 'win32'
  const mac = deps.platform === 'darwin'
  let state: PlayerState | null = null
  let reportedAt = 0
  let lastButtons = ''
  let buttonsPending = false
  let lastProgress = ''
  let lastDock = ''
  let ticker: unknown

  const applyButtons = () => {
    if (!windows || !deps.ports.setThumbarButtons) return
    const buttons = thumbarButtons(state, deps.language())
    const text = JSON.stringify(buttons)
    if (text === lastButtons && !buttonsPending) return
    // Refused (the window is hidden or not shown yet): tried again when it is shown.
    buttonsPending = !deps.ports.setThumbarButtons(buttons)
    lastButtons = text
  }
  const applyProgress = () => {
    if (!windows || !deps.ports.setProgress) return
    const progress = taskbarProgress(state, deps.now() - reportedAt)
    const text = JSON.stringify(progress)
    if (text === lastProgress) return
    lastProgress = text
    deps.ports.setProgress(progress)
  }
  const applyDock = () => {
    if (!mac || !deps.ports.setDockMenu) return
    const items = dockMenu(state, deps.language())
    const text = JSON.stringify(items)
    if (text === lastDock) return
    lastDock = text
    deps.ports.setDockMenu(items)
  }
  const moving = () => windows && !!state?.playing && taskbarProgress(state).mode === 'normal'
  const step = () => {
    ticker = undefined
    applyProgress()
    tick()
  }
  const tick = () => {
    if (moving() && ticker === undefined) ticker = deps.timers.setTimeout(step, PROGRESS_TICK_MS)
    if (!moving() && ticker !== undefined) {
      deps.timers.clearTimeout(ticker)
      ticker = undefined
    }
  }
  const render = () => {
    applyButtons()
    applyProgress()
    applyDock()
    tick()
  }

  return {
    update(next: PlayerState | null) {
      state = next
      reportedAt = deps.now()
      render()
    },
    /** The language changed, or the window was shown again (a refused toolbar is set now). */
    refresh: () => {
      lastDock = ''
      if (buttonsPending) lastButtons = ''
      render()
    },
    /** Whether the thumbnail toolbar waits for the window to be shown. */
    buttonsPending: () => buttonsPending,
    dispose() {
      if (ticker !== undefined) deps.timers.clearTimeout(ticker)
      ticker = undefined
    },
  }
}
