import { mkdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { startFixtureSource } from '../support/fixture-source'
import { api } from './ui-shots'

/**
 * Switching data sources in Settings: nothing of the old source stays on screen (Home's cards, a page of
 * one of its playlists), while the player keeps its queue and song (the queue is global).
 */
describe('Switching data sources', () => {
  let app: App
  let other: Awaited<ReturnType<typeof startFixtureSource>>
  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    app = await startApp()
    other = await startFixtureSource()
  })
  afterAll(async () => {
    await app?.close()
    await other?.close()
  })

  const cards = () => app.page.getByTestId('home-playlists').getByTestId('playlist-card').locator('h3')

  it("shows the new source's Home, leaves the old source's pages and keeps the queue", async () => {
    const page = app.page
    await page.getByTestId('nav-home').click()
    await cards().first().waitFor()
    const before = await cards().allTextContents()
    // Playing a song of the built-in source, on one of its playlist pages.
    const first = page.getByTestId('home-songs').getByTestId('song-row').first()
    const title = (await first.getByTestId('song-name').textContent())!
    await first.getByTestId('song-name').dblclick()
    await expect.poll(() => page.getByTestId('player-title').textContent()).toBe(title)
    const [list] = await api<Array<{ id: number }>>(app, '/playlist/recommend?limit=1')

    // Add the other source in Settings and make it the active one.
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('source-url').fill(other.url)
    await page.getByTestId('source-url').press('Enter')
    const added = page.getByTestId('source').filter({ hasText: other.url.replace(/^http:\/\//, '') })
    await added.waitFor()
    await page.evaluate((id) => {
      window.location.hash = `#/playlist/${id}`
    }, list.id)
    await page.getByTestId('playlist-name').waitFor()
    await page.getByTestId('nav-settings').click()
    await added.getByRole('radio').check()

    // The queue is global: the player keeps the built-in source's song, with no notice.
    await expect.poll(() => page.getByTestId('player-title').textContent()).toBe(title)
    await expect.poll(() => page.getByTestId('player-notice').count(), { timeout: 10_000 }).toBe(0)
    // Home shows the new source's cards, none of the old ones.
    await page.getByTestId('nav-home').click()
    await expect.poll(() => cards().allTextContents()).toEqual(['for anyone'])
    for (const name of before) expect(await cards().allTextContents()).not.toContain(name)
    await app.screenshot('ui-source-switched')

    // Back to the built-in source: its Home again, and the playlist page of the other source is left.
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('source').first().getByRole('radio').check()
    await page.getByTestId('nav-home').click()
    await expect.poll(() => cards().allTextContents()).toEqual(before)
  })
})
