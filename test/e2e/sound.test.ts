import { mkdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import type { Settings } from '@shared/settings'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { audioState, findSongs, playSongs, playable, waitForClock } from './playback-support'

/**
 * The sound controls one click from the player bar, in Debian Chromium. Chromium's fake media devices
 * (`--use-fake-device-for-media-stream`, with `--use-fake-ui-for-media-stream` so the page may see them)
 * give it output devices to list and to play on; without them headless Chromium lists none.
 */
describe('Sound controls', () => {
  let app: App
  let songs: Song[]
  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    app = await startApp({
      chromiumArgs: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
    })
    songs = await findSongs(app, 2, playable)
    await app.page.getByTestId('now-playing').waitFor()
  })
  afterAll(() => app?.close())

  const saved = () => app.page.evaluate(() => window.cadence.invoke('settings:get')) as Promise<Settings>
  const panel = () => app.page.getByTestId('sound-panel')
  async function openPanel() {
    if (await panel().isVisible()) return
    await app.page.getByTestId('player-sound').click()
    await panel().waitFor()
  }
  const sinkId = () =>
    app.page.getByTestId('player-audio').evaluate((el) => (el as unknown as { sinkId: unknown }).sinkId)
  /** The audio clock moves on by at least `seconds` while playing (the music did not stop). */
  async function keepsPlaying(seconds: number) {
    const from = (await audioState(app.page)).time
    await waitForClock(app.page, from + seconds)
  }

  it('opens from the player bar, changes the preset and the speed, and the settings change', async () => {
    const { page } = app
    await openPanel()
    await expect
      .poll(() => page.getByTestId('player-sound').getAttribute('aria-expanded'), { timeout: 10_000 })
      .toBe('true')
    await page.getByTestId('sound-eq-preset').selectOption('rock')
    await expect
      .poll(async () => (await saved()).equaliser)
      .toMatchObject({ enabled: true, preset: 'rock', preamp: -4 })
    await page.getByTestId('sound-speed').fill('1.25')
    await expect.poll(async () => (await saved()).speed).toBe(1.25)
    await expect
      .poll(() => page.getByTestId('sound-speed').locator('xpath=..').innerText(), { timeout: 10_000 })
      .toContain('1.25×')
    await page.getByTestId('sound-crossfade').fill('4')
    await expect.poll(async () => (await saved()).crossfadeSeconds).toBe(4)
    await app.screenshot('sound-panel')
  })

  it('closes on Escape with the focus back on its button', async () => {
    const { page } = app
    await openPanel()
    await page.getByTestId('sound-speed').focus()
    await page.keyboard.press('Escape')
    await panel().waitFor({ state: 'detached' })
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')), {
        timeout: 10_000,
      })
      .toBe('player-sound')
  })

  it('lists the output devices, and plays on when the device or the equaliser changes', async () => {
    const { page } = app
    await playSongs(page, songs)
    await waitForClock(page, 0.5)
    await openPanel()
    const device = page.getByTestId('sound-device')
    const labels = await device.locator('option').allInnerTexts()
    expect(labels[0]).toBe('System default')
    expect(labels).toContain('Fake Audio Output 1')
    const id = await device.locator('option', { hasText: 'Fake Audio Output 1' }).getAttribute('value')
    await device.selectOption({ label: 'Fake Audio Output 1' })
    await expect.poll(async () => (await saved()).outputDevice).toEqual({ id, label: 'Fake Audio Output 1' })
    // The output's context plays on it now (the hidden element shows the context's sinkId).
    await expect.poll(sinkId).toBe(id)
    await keepsPlaying(1)
    await page.getByTestId('sound-eq-enabled').setChecked(false, { force: true })
    await expect.poll(async () => (await saved()).equaliser.enabled).toBe(false)
    await keepsPlaying(0.5)
    await page.getByTestId('sound-eq-enabled').setChecked(true, { force: true })
    await expect.poll(async () => (await saved()).equaliser.enabled).toBe(true)
    await keepsPlaying(0.5)
    await device.selectOption({ label: 'System default' })
    await expect.poll(async () => (await saved()).outputDevice.id).toBe('')
    await expect.poll(sinkId).toBe('')
    await keepsPlaying(0.5)
    expect((await audioState(page)).paused).toBe(false)
  })

  it('plays on the system default and names a remembered device that is not connected', async () => {
    const { page } = app
    await page.evaluate(() =>
      window.cadence.invoke('settings:update', { outputDevice: { id: 'gone-device', label: 'Old DAC' } }),
    )
    await page.reload()
    await page.getByTestId('player-notice').waitFor()
    await expect
      .poll(() => page.getByTestId('player-notice').innerText(), { timeout: 10_000 })
      .toContain('“Old DAC” is not connected')
    await openPanel()
    const selected = page.getByTestId('sound-device').locator('option:checked')
    await expect.poll(() => selected.innerText(), { timeout: 10_000 }).toBe('Old DAC (not connected)')
    // It plays, on the system default.
    await playSongs(page, songs)
    await waitForClock(page, 0.5)
    await expect.poll(() => sinkId(), { timeout: 10_000 }).toBe('')
  })

  it('changes the equaliser bands in Settings → Playback', async () => {
    const { page } = app
    await page.getByTestId('nav-settings').click()
    const band = page.getByTestId('settings-playback').getByTestId('sound-eq-band-0')
    await band.scrollIntoViewIfNeeded()
    await app.screenshot('sound-settings')
    await band.fill('-3')
    await expect.poll(async () => (await saved()).equaliser).toMatchObject({ preset: 'custom' })
    expect((await saved()).equaliser.gains[0]).toBe(-3)
    await page.getByTestId('sound-eq-reset').click()
    await expect.poll(async () => (await saved()).equaliser.preset).toBe('flat')
  })
})
