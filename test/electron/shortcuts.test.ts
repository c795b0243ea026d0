import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { launchApp } from './harness'
import type { StandInApp } from './harness'
import { playRow, waitForClock } from '../e2e/playback-support'

/**
 * Global shortcuts through the built app under the stand-in Electron: recorded in Settings with real key
 * presses, registered by main with `globalShortcut`, and one held by "another application" (the stand-in's
 * `CADENCE_STANDIN_TAKEN_SHORTCUTS`: `register` answers false, as Electron's does) shown as taken.
 */
const TAKEN = 'CommandOrControl+Alt+N'

describe('the built app under the stand-in Electron: global shortcuts', () => {
  let app: StandInApp
  let page: Page
  beforeAll(async () => {
    app = await launchApp({ env: { CADENCE_STANDIN_TAKEN_SHORTCUTS: JSON.stringify([TAKEN]) } })
    page = await app.mainPage()
    await page.getByTestId('playlist-card').first().waitFor()
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('global-shortcuts').waitFor()
  }, 120_000)
  afterAll(() => app?.close())

  const row = (action: string) => page.locator(`[data-shortcut="${action}"]`)
  const record = async (action: string, keys: string) => {
    await row(action).getByTestId('shortcut-change').click()
    await row(action).getByTestId('shortcut-recording').waitFor()
    await page.keyboard.press(keys)
  }

  it('records keys for play/pause; main registers them and a press reaches the player', async () => {
    await record('play-pause', 'Control+Alt+KeyP')
    await expect
      .poll(() => row('play-pause').getByTestId('shortcut-keys').innerText(), { timeout: 20_000 })
      .toBe('Ctrl+Alt+P')
    await app.waitFor('shortcut-registered', (accelerator) => accelerator === 'CommandOrControl+Alt+P')
    await expect
      .poll(() => row('play-pause').getByTestId('shortcut-taken').count(), { timeout: 20_000 })
      .toBe(0)
    const saved = JSON.parse(readFileSync(join(app.userData(), 'cadence.json'), 'utf8')) as {
      settings: { shortcuts: Record<string, string> }
    }
    expect(saved.settings.shortcuts['play-pause']).toBe('CommandOrControl+Alt+P')

    await page.getByTestId('nav-home').click()
    await page.getByTestId('playlist-card').first().click()
    await page.getByTestId('playlist-name').waitFor()
    await playRow(page, page.locator('main [data-testid="song-row"]:not([aria-disabled])'), 0)
    await waitForClock(page, 0.3)
    app.send({ type: 'shortcut-press', id: 'CommandOrControl+Alt+P' })
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement).paused,
      undefined,
      { timeout: 20_000 },
    )
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('global-shortcuts').waitFor()
  }, 120_000)

  it('shows keys another application holds as taken, not silently dropped; clearing them ends it', async () => {
    await record('next', 'Control+Alt+KeyN')
    await expect
      .poll(() => row('next').getByTestId('shortcut-taken').innerText(), { timeout: 20_000 })
      .toBe('Taken by another application')
    expect(app.all('shortcut-taken')).toContain(TAKEN)
    expect(app.all('shortcut-registered')).not.toContain(TAKEN)
    const state = await page.evaluate(() => window.cadence.invoke('shortcuts:state'))
    expect(state).toMatchObject({ next: 'taken', 'play-pause': 'registered', 'desktop-lyrics': 'registered' })

    await row('next').getByTestId('shortcut-clear').click()
    await expect.poll(() => row('next').getByTestId('shortcut-taken').count(), { timeout: 20_000 }).toBe(0)
    await expect
      .poll(() => row('next').getByTestId('shortcut-keys').innerText(), { timeout: 20_000 })
      .toBe('Not set')
  }, 60_000)

  it('main refuses an accelerator Electron cannot parse, and reset all gives the defaults back', async () => {
    const refused = await page.evaluate(() =>
      window.cadence
        .invoke('settings:update', {
          shortcuts: {
            'play-pause': 'Ctrl+Alt',
            next: '',
            previous: '',
            like: '',
            'volume-up': '',
            'volume-down': '',
            'desktop-lyrics': '',
          },
        })
        .then(
          () => 'saved',
          (error: unknown) => String((error as { kind?: string }).kind),
        ),
    )
    expect(refused).toBe('invalid-argument')
    expect(app.all('shortcut-press-missed')).toEqual([])

    const mark = app.records.length
    await page.getByTestId('shortcut-reset').click()
    await expect
      .poll(() => row('play-pause').getByTestId('shortcut-keys').innerText(), { timeout: 20_000 })
      .toBe('Not set')
    await expect
      .poll(() => row('desktop-lyrics').getByTestId('shortcut-keys').innerText(), { timeout: 20_000 })
      .toBe('Ctrl+Alt+L')
    await app.waitFor(
      'shortcut-unregistered',
      (accelerator, at) => at >= mark && accelerator === 'CommandOrControl+Alt+P',
    )
  }, 60_000)
})
