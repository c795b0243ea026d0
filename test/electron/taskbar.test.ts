import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { ROOT, isPackagedFile, launchApp } from './harness'
import type { StandInApp } from './harness'
import { audioState, playRow, title, waitForClock } from '../e2e/playback-support'

/**
 * The taskbar, the dock and the desktop entry's actions, with the built main under the stand-in Electron
 * playing each platform (`CADENCE_STANDIN_PLATFORM`; its API follows the platform as Electron's does).
 * Bookkeeping only: no real taskbar, dock or launcher is involved.
 */

type Buttons = {
  id: number
  buttons: Array<{ tooltip: string; flags: string[]; icon: string; empty: boolean }>
}
type Progress = { progress: number; mode?: string }
type MenuItem = { id?: string; label?: string; enabled?: boolean }

const icons = (record: unknown) => (record as Buttons).buttons.map((b) => b.icon.split('/').at(-1))
const since = (index: number) => (_: unknown, at: number) => at >= index
const waitPaused = (page: Page, paused: boolean) =>
  page.waitForFunction(
    (want) =>
      (document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement | null)?.paused === want,
    paused,
    { timeout: 20_000 },
  )

async function playFirstPlaylistSong(page: Page, index = 0): Promise<string> {
  await page.getByTestId('playlist-card').first().click()
  await page.getByTestId('playlist-name').waitFor()
  const name = await playRow(page, page.locator('main [data-testid="song-row"]:not([aria-disabled])'), index)
  await waitForClock(page, 0.3)
  return name
}

describe('the built app under the stand-in Electron: taskbar, dock and desktop actions', () => {
  const running: StandInApp[] = []
  const homes: string[] = []
  const launch = async (options: Parameters<typeof launchApp>[0] = {}) => {
    const app = await launchApp(options)
    running.push(app)
    return app
  }
  afterEach(async () => {
    for (const app of running.splice(0)) await app.close({ keepHome: true })
    for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true })
  })

  it('Windows: thumbnail-toolbar buttons follow the player, are set again after a hidden window refused them, and the taskbar progress moves', async () => {
    const app = await launch({ env: { CADENCE_STANDIN_PLATFORM: 'win32' } })
    const page = await app.mainPage()
    const first = await app.waitFor('thumbar-buttons')
    expect(icons(first.data)).toEqual(['previous.png', 'play.png', 'next.png', 'like.png'])
    const buttons = (first.data as Buttons).buttons
    expect(buttons.map((b) => b.tooltip)).toEqual(['Previous', 'Play', 'Next', 'Like'])
    expect(buttons.every((b) => b.flags.includes('disabled') && !b.empty)).toBe(true)
    expect(buttons.every((b) => isPackagedFile(relative(ROOT, b.icon)))).toBe(true)
    expect(app.all('dock-menu')).toEqual([])

    const name = await playFirstPlaylistSong(page)
    await app.waitFor('thumbar-buttons', (data) => icons(data)[1] === 'pause.png')
    const moving = await app.waitFor('progress-bar', (data) => (data as Progress).mode === 'normal')
    const start = (moving.data as Progress).progress
    expect(start).toBeGreaterThanOrEqual(0)
    expect(start).toBeLessThanOrEqual(1)
    // Main moves it on by itself while the song plays.
    await app.waitFor(
      'progress-bar',
      (data) => (data as Progress).mode === 'normal' && (data as Progress).progress > start,
    )

    // The toolbar's play/pause reaches the renderer's player.
    let mark = app.records.length
    app.send({ type: 'thumbar-click', id: '1' })
    await waitPaused(page, true)
    await app.waitFor('progress-bar', (data, at) => at >= mark && (data as Progress).mode === 'paused')
    await app.waitFor('thumbar-buttons', (data, at) => at >= mark && icons(data)[1] === 'play.png')
    expect(await title(page)).toBe(name)

    // Hidden (to the tray), the window refuses the toolbar; shown again, it gets the current one.
    mark = app.records.length
    app.send({ type: 'tray-click', id: 'toggle-window' })
    await app.waitFor('window-hide', since(mark))
    app.send({ type: 'tray-click', id: 'play-pause' })
    await waitPaused(page, false)
    await app.waitFor('thumbar-refused', since(mark))
    expect(app.records.slice(mark).filter((r) => r.kind === 'thumbar-buttons')).toEqual([])
    app.send({ type: 'tray-click', id: 'toggle-window' })
    await app.waitFor('thumbar-buttons', (data, at) => at >= mark && icons(data)[1] === 'pause.png')

    // Stopped: the bar is removed.
    mark = app.records.length
    await page.evaluate(() => window.cadence.invoke('player:report-state', { playing: false, song: null }))
    await app.waitFor('progress-bar', (data, at) => at >= mark && (data as Progress).mode === 'none')
    expect((app.all('progress-bar').at(-1) as Progress).progress).toBe(-1)
  }, 180_000)

  it('macOS: the dock menu shows what plays and its items reach the player; no Windows toolbar', async () => {
    const app = await launch({ env: { CADENCE_STANDIN_PLATFORM: 'darwin' } })
    const page = await app.mainPage()
    const first = await app.waitFor('dock-menu')
    const items = first.data as MenuItem[]
    expect(items.map((i) => i.id)).toEqual([
      'now-playing',
      undefined,
      'play-pause',
      'next',
      'previous',
      'like',
    ])
    expect(items[0]).toMatchObject({ label: 'Nothing playing', enabled: false })

    const name = await playFirstPlaylistSong(page)
    const playingMenu = await app.waitFor('dock-menu', (data) => (data as MenuItem[])[2]?.label === 'Pause')
    expect((playingMenu.data as MenuItem[])[0]).toMatchObject({ enabled: false })
    expect((playingMenu.data as MenuItem[])[0].label).toContain(name)

    const mark = app.records.length
    app.send({ type: 'dock-click', id: 'play-pause' })
    await waitPaused(page, true)
    await app.waitFor('dock-menu', (data, at) => at >= mark && (data as MenuItem[])[2]?.label === 'Play')
    app.send({ type: 'dock-click', id: 'next' })
    await expect.poll(() => title(page), { timeout: 30_000 }).not.toBe(name)
    expect(app.all('thumbar-buttons')).toEqual([])
    expect(app.all('dock-click-missed')).toEqual([])
  }, 180_000)

  it('Linux: a first start with --play-pause opens normally; the desktop actions of a second start reach the running player', async () => {
    const home = await mkdtemp(join(tmpdir(), 'cadence-taskbar-'))
    homes.push(home)
    const first = await launch({ home, args: ['--play-pause'] })
    const page = await first.mainPage()
    await page.getByTestId('playlist-card').first().waitFor()
    expect(first.all('single-instance-lock')).toEqual([{ granted: true }])
    expect(first.all('dock-menu')).toEqual([])
    expect(first.all('thumbar-buttons')).toEqual([])

    const name = await playFirstPlaylistSong(page)
    let mark = first.records.length
    const pause = await launch({ home, args: ['--play-pause'] })
    expect(await pause.exited).toBe(0)
    expect(pause.all('window-created')).toEqual([])
    await first.waitFor('second-instance', since(mark))
    await waitPaused(page, true)
    // An action plays; it does not bring the window forward.
    expect(first.records.slice(mark).filter((r) => r.kind === 'window-focus')).toEqual([])

    mark = first.records.length
    const next = await launch({ home, args: ['--next'] })
    expect(await next.exited).toBe(0)
    await first.waitFor('second-instance', since(mark))
    await expect.poll(() => title(page), { timeout: 30_000 }).not.toBe(name)

    // A plain second start still shows the window.
    mark = first.records.length
    const plain = await launch({ home })
    expect(await plain.exited).toBe(0)
    await first.waitFor('window-focus', since(mark))
    expect((await audioState(page)).src).toMatch(/^cadence-media:/)
  }, 240_000)
})
