import { mkdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { shootBothThemes } from './ui-shots'

describe('Like and unlike', () => {
  let app: App
  let songName: string
  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    app = await startApp()
  })
  afterAll(() => app?.close())

  async function openLiked() {
    const page = app.page
    await page.getByTestId('nav-library').click()
    const liked = page.locator('[data-testid="playlist-card"][data-liked]')
    await liked.first().waitFor()
    await liked.first().click()
    await page.getByTestId('playlist-name').waitFor()
  }

  it('likes a song from a playlist and finds it in the liked playlist', async () => {
    const page = app.page
    await page.getByTestId('home-playlists').getByTestId('playlist-card').first().click()
    // Home has song rows of its own: pick a row only once the playlist's view has replaced it.
    await page.getByTestId('playlist-name').waitFor()
    const unliked = page
      .getByTestId('song-row')
      .filter({ has: page.locator('[data-testid="like-button"][aria-pressed="false"]') })
      .first()
    await unliked.waitFor()
    // Pin the row by its index: once liked it no longer matches the filter above.
    const row = page.locator(
      `[data-testid="song-row"][data-index="${await unliked.getAttribute('data-index')}"]`,
    )
    songName = (await row.getByTestId('song-name').textContent())!
    const heart = row.getByTestId('like-button')
    await heart.click()
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('true')

    await openLiked()
    await expect.poll(() => page.getByTestId('song-name').allTextContents()).toContain(songName)
    await shootBothThemes(app, 'ui-liked')
  })

  it('unlikes it from the liked playlist and it leaves the list', async () => {
    const page = app.page
    const row = page.getByTestId('song-row').filter({ hasText: songName }).first()
    await row.getByTestId('like-button').click()
    await expect.poll(() => page.getByTestId('song-name').allTextContents()).not.toContain(songName)
    await openLiked()
    await expect.poll(() => page.getByTestId('song-name').allTextContents()).not.toContain(songName)
  })

  it('shows the library with the liked playlist first', async () => {
    const page = app.page
    await page.getByTestId('nav-library').click()
    await page.getByTestId('playlist-card').first().waitFor()
    await expect
      .poll(() => page.getByTestId('playlist-card').first().getAttribute('data-liked'), { timeout: 10_000 })
      .toBe('true')
    await shootBothThemes(app, 'ui-library')
  })
})
