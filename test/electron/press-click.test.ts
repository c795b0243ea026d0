import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchApp } from './harness'
import type { StandInApp } from './harness'
import { audioState } from '../e2e/playback-support'
import { countPress, PRESSED_CHAIN, pressChain, pressCounts, pressedSong } from '../support/press-counts'

/**
 * The click through the built main process (its media protocol handler, under the stand-in Electron),
 * not only the end-to-end harness: a row's press has the song's head (one media request) and its first
 * chunk decoded; the double-click's play then schedules that chunk with no media request and no chunk
 * made before it. The counts are the same as the harness's (`test/e2e/press-first-chunk.test.ts`, the
 * same `PRESSED_CHAIN`), and main's handler saw the same requests as the page.
 */
describe('the built app under the stand-in Electron: a click heard at once', () => {
  let app: StandInApp
  beforeAll(async () => {
    app = await launchApp()
  }, 120_000)
  afterAll(() => app?.close())

  it('press, then double-click: one head on the press, nothing read or made before the first chunk plays', async () => {
    // A loaded machine starts the app slowly.
    await app.waitFor(
      'window-loaded',
      (d) => !String((d as { url: string }).url).includes('#/login'),
      150_000,
    )
    const page = await app.mainPage()
    await page.evaluate(() => window.cadence.invoke('settings:update', { loudness: 'off' }))
    await page.getByTestId('playlist-card').first().click({ timeout: 60_000 })
    await page.getByTestId('playlist-name').waitFor({ timeout: 30_000 })
    const rows = page.locator('main [data-testid="song-row"]:not([aria-disabled])')
    await rows.nth(3).waitFor({ timeout: 30_000 })
    await countPress(page)
    const before = await pressCounts(page)
    const name = rows.nth(3).getByTestId('song-name')
    const title = await name.innerText()

    await name.dispatchEvent('pointerdown', { button: 0, isPrimary: true })
    await expect.poll(() => pressedSong(page), { timeout: 30_000 }).toBeTruthy()
    const url = (await pressedSong(page))!
    await expect
      .poll(async () => (await pressCounts(page)).buffers, { timeout: 30_000 })
      .toBe(before.buffers + 1)
    const afterPress = await pressCounts(page)
    expect(afterPress.starts.length).toBe(before.starts.length)

    await name.dblclick()
    await page.getByTestId('player-title').getByText(title, { exact: true }).waitFor({ timeout: 30_000 })
    await expect.poll(async () => (await audioState(page)).time, { timeout: 30_000 }).toBeGreaterThan(0.5)
    const played = await pressCounts(page)
    expect(pressChain(afterPress, played, url)).toMatchObject(PRESSED_CHAIN)

    // Main's protocol handler answered the song's head once, as the page saw it.
    const handled = app.all('protocol-request') as Array<{ url: string; range?: string; status: number }>
    expect(handled.filter((r) => r.url === url && r.range === 'bytes=0-65535')).toEqual([
      { url, range: 'bytes=0-65535', status: 206 },
    ])
    // Every request the page made of the song reached main's handler, answered with the same status.
    const key = (r: { range?: string; status: number }) => `${r.range} ${r.status}`
    const asked = played.answers.filter((a) => a.url === url).map(key)
    const seen = () => (app.all('protocol-request') as typeof handled).filter((r) => r.url === url).map(key)
    await expect.poll(() => seen().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(asked.length)
    const left = seen()
    for (const request of asked) {
      expect(left).toContain(request)
      left.splice(left.indexOf(request), 1)
    }
    await page.getByTestId('player-toggle').click()
  }, 300_000)
})
