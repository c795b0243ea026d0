import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { PlayerState } from '@shared/ipc/contract'
import {
  DESKTOP_ACTION_FLAGS,
  PROGRESS_TICK_MS,
  createTaskbar,
  desktopAction,
  dockMenu,
  taskbarProgress,
  thumbarButtons,
} from '@main/core/taskbar'
import type { TaskbarPorts, TaskbarProgress, ThumbarButton } from '@main/core/taskbar'
import type { TrayMenuItem } from '@main/core/tray/menu'
import { manualTimers } from '../support/manual-timers'

/** The taskbar/dock decisions in the core, with the platform injected (the glue passes process.platform). */

const ROOT = resolve(import.meta.dirname, '../..')
const song = { id: 7, name: 'Blue Hour', artists: 'Ada', liked: false }
const playing = (positionMs = 30_000, extra: Partial<PlayerState> = {}): PlayerState => ({
  playing: true,
  song,
  progress: { positionMs, durationMs: 120_000, speed: 1 },
  ...extra,
})

function harness(platform: string, refuseButtons = false) {
  let now = 1_000_000
  const timers = manualTimers()
  const buttons: ThumbarButton[][] = []
  const progress: TaskbarProgress[] = []
  const dock: TrayMenuItem[][] = []
  let refuse = refuseButtons
  const ports: TaskbarPorts = {
    setThumbarButtons: (set) => (refuse ? false : (buttons.push(set), true)),
    setProgress: (p) => void progress.push(p),
    setDockMenu: (items) => void dock.push(items),
  }
  const taskbar = createTaskbar({ platform, ports, language: () => 'en', now: () => now, timers })
  return {
    taskbar,
    timers,
    buttons,
    progress,
    dock,
    advance: (ms: number) => (now += ms),
    accept: () => (refuse = false),
  }
}

describe('thumbnail toolbar (Windows)', () => {
  it('has previous, play/pause, next and like, with tooltips, the play button flipping with the state', () => {
    const paused = thumbarButtons({ playing: false, song }, 'en')
    expect(paused.map((b) => [b.id, b.icon, b.tooltip, b.command])).toEqual([
      ['previous', 'previous', 'Previous', 'previous'],
      ['play-pause', 'play', 'Play', 'play'],
      ['next', 'next', 'Next', 'next'],
      ['like', 'like', 'Like', 'like'],
    ])
    const on = thumbarButtons({ playing: true, song: { ...song, liked: true } }, 'zh-CN')
    expect(on.map((b) => [b.icon, b.tooltip, b.command])).toEqual([
      ['previous', '上一首', 'previous'],
      ['pause', '暂停', 'pause'],
      ['next', '下一首', 'next'],
      ['liked', '取消喜欢', 'unlike'],
    ])
    expect(thumbarButtons(null).every((b) => !b.enabled)).toBe(true)
  })

  it('has an icon file in resources/taskbar for every button state, at 1x and 2x', () => {
    for (const icon of ['previous', 'play', 'pause', 'next', 'like', 'liked']) {
      for (const [file, size] of [
        [`${icon}.png`, 16],
        [`${icon}@2x.png`, 32],
      ] as const) {
        const png = readFileSync(join(ROOT, 'resources/taskbar', file))
        expect([png.readUInt32BE(16), png.readUInt32BE(20)], file).toEqual([size, size])
      }
    }
  })

  it('sets the buttons again when the window could not take them (hidden), once it is shown', () => {
    const t = harness('win32', true)
    t.taskbar.update(playing())
    expect(t.taskbar.buttonsPending()).toBe(true)
    expect(t.buttons).toHaveLength(0)
    t.accept()
    t.taskbar.refresh()
    expect(t.taskbar.buttonsPending()).toBe(false)
    expect(t.buttons.at(-1)?.[1]).toMatchObject({ icon: 'pause', command: 'pause' })
    // Unchanged state: not set again.
    t.taskbar.update(playing())
    expect(t.buttons).toHaveLength(1)
    t.taskbar.update(playing(30_000, { playing: false }))
    expect(t.buttons.at(-1)?.[1]).toMatchObject({ icon: 'play', tooltip: 'Play', command: 'play' })
  })
})

describe('taskbar progress (Windows)', () => {
  it("is the song's fraction while playing, moved on by the time since the report at its speed", () => {
    expect(taskbarProgress(playing(30_000))).toEqual({ value: 0.25, mode: 'normal' })
    expect(taskbarProgress(playing(30_000), 6_000)).toEqual({ value: 0.3, mode: 'normal' })
    const fast = playing(30_000, { progress: { positionMs: 30_000, durationMs: 120_000, speed: 2 } })
    expect(taskbarProgress(fast, 6_000)).toEqual({ value: 0.35, mode: 'normal' })
    expect(taskbarProgress(playing(119_000), 60_000).value).toBe(1)
  })

  it("is 'paused' at the same fraction when paused, and removed (-1, none) with nothing playing", () => {
    expect(taskbarProgress(playing(60_000, { playing: false }), 9_000)).toEqual({
      value: 0.5,
      mode: 'paused',
    })
    expect(taskbarProgress({ playing: false, song: null })).toEqual({ value: -1, mode: 'none' })
    expect(taskbarProgress(playing(0, { progress: undefined }))).toEqual({ value: -1, mode: 'none' })
  })

  it('moves on every second while playing and stops ticking when paused or stopped', () => {
    const t = harness('win32')
    t.taskbar.update(playing(0))
    expect(t.progress.at(-1)).toEqual({ value: 0, mode: 'normal' })
    expect(t.timers.delays()).toEqual([PROGRESS_TICK_MS])
    t.advance(12_000)
    t.timers.fire(PROGRESS_TICK_MS)
    expect(t.progress.at(-1)).toEqual({ value: 0.1, mode: 'normal' })
    t.taskbar.update(playing(12_000, { playing: false }))
    expect(t.progress.at(-1)).toEqual({ value: 0.1, mode: 'paused' })
    expect(t.timers.delays()).toEqual([])
    t.taskbar.update({ playing: false, song: null })
    expect(t.progress.at(-1)).toEqual({ value: -1, mode: 'none' })
  })
})

describe('dock menu (macOS)', () => {
  it('has the now-playing line (disabled), play/pause, next, previous and like', () => {
    const items = dockMenu(playing(), 'en')
    expect(
      items.map((item) => (item.type === 'separator' ? '-' : [item.id, item.label, item.enabled])),
    ).toEqual([
      ['now-playing', 'Blue Hour — Ada', false],
      '-',
      ['play-pause', 'Pause', true],
      ['next', 'Next', true],
      ['previous', 'Previous', true],
      ['like', 'Like', true],
    ])
    expect(dockMenu(null, 'zh-CN')[0]).toMatchObject({ label: '未在播放', enabled: false })
  })
})

describe('each platform gets its own', () => {
  it('Windows: toolbar and progress, no dock menu; macOS: the dock menu only; Linux: none of them', () => {
    const win = harness('win32')
    win.taskbar.update(playing())
    expect([win.buttons.length, win.progress.length, win.dock.length]).toEqual([1, 1, 0])
    const mac = harness('darwin')
    mac.taskbar.update(playing())
    expect([mac.buttons.length, mac.progress.length, mac.dock.length]).toEqual([0, 0, 1])
    expect(mac.timers.delays()).toEqual([])
    const linux = harness('linux')
    linux.taskbar.update(playing())
    expect([linux.buttons.length, linux.progress.length, linux.dock.length]).toEqual([0, 0, 0])
  })
})

describe('Linux desktop actions', () => {
  it("maps a second start's flag to a player command; anything else is no action", () => {
    expect(desktopAction(['/opt/Cadence/cadence', '--play-pause'])).toBe('toggle')
    expect(desktopAction(['/opt/Cadence/cadence', '--no-sandbox', '--next'])).toBe('next')
    expect(desktopAction(['cadence', '--previous'])).toBe('previous')
    expect(desktopAction(['cadence'])).toBeNull()
    expect(desktopAction(['cadence', '--toString'])).toBeNull()
  })

  it("electron-builder.yml's desktop entry lists the actions, each running cadence with a flag the app knows", () => {
    const yml = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')
    expect(yml).toMatch(/^\s+Actions: PlayPause;Next;Previous;$/m)
    const block = /^\s+desktopActions:\n((?:\s{6,}.*\n)+)/m.exec(yml)?.[1] ?? ''
    const execs = [...block.matchAll(/Exec: (.+)$/gm)].map((match) => match[1].trim())
    expect(execs).toEqual(['cadence --play-pause', 'cadence --next', 'cadence --previous'])
    expect(execs.map((exec) => desktopAction(exec.split(' ')))).toEqual(['toggle', 'next', 'previous'])
    expect(Object.keys(DESKTOP_ACTION_FLAGS)).toHaveLength(3)
  })
})
