import { mkdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { api, shootBothThemes } from './ui-shots'

interface P {
  id: number
  name: string
  songs?: Array<{ id: number; name: string; duration?: number; artists: Array<{ id: number; name: string }> }>
}

describe('Browse: Home → playlist → artist', () => {
  let app: App
  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    app = await startApp()
  })
  afterAll(() => app?.close())

  it('shows every Home section from the data source', async () => {
    const page = app.page
    // Each test starts where it needs to be, not where the one before left the app.
    await page.getByTestId('nav-home').click()
    const toplists = await api<P[]>(app, '/playlist/toplist?limit=6')
    await page.getByTestId('home-playlists').getByTestId('playlist-card').first().waitFor()
    await page.getByTestId('home-toplists').getByTestId('playlist-card').first().waitFor()
    await expect
      .poll(() => page.getByTestId('home-toplists').locator('h3').allTextContents(), { timeout: 10_000 })
      .toEqual(toplists.map((p) => p.name))
    await page.getByTestId('home-songs').getByTestId('song-row').first().waitFor()
    await page.getByTestId('home-artists').getByTestId('artist-card').first().waitFor()
    await shootBothThemes(app, 'ui-home')
  })

  it('opens a playlist with its header and songs', async () => {
    const page = app.page
    await page.getByTestId('nav-home').click()
    const first = page.getByTestId('home-playlists').getByTestId('playlist-card').first()
    const href = (await first.getAttribute('href'))!
    const id = decodeURIComponent(href.split('/').pop()!)
    const detail = await api<P>(app, `/playlist/detail?id=${id}`)
    await first.click()
    await expect.poll(() => page.getByTestId('playlist-name').textContent()).toBe(detail.name)
    await page.getByTestId('song-row').first().waitFor()
    await expect
      .poll(() => page.getByTestId('song-name').first().textContent(), { timeout: 10_000 })
      .toBe(detail.songs![0].name)
    await expect
      .poll(() => page.getByTestId('playlist-count').textContent(), { timeout: 10_000 })
      .toContain(String(detail.songs!.length))
    // The total time, as the app's own playlists show it: the sum of the songs' durations, rounded down
    // as every time shown is.
    const seconds = Math.floor(detail.songs!.reduce((sum, s) => sum + (s.duration ?? 0), 0) / 1000)
    await expect
      .poll(() => page.getByTestId('playlist-duration').textContent(), { timeout: 10_000 })
      .toBe(
        seconds >= 3600
          ? `${Math.floor(seconds / 3600)} h ${Math.floor(seconds / 60) % 60} min`
          : `${Math.floor(seconds / 60)} min ${seconds % 60} s`,
      )
    await expect.poll(() => page.getByTestId('play-all').isEnabled(), { timeout: 10_000 }).toBe(true)
    await shootBothThemes(app, 'ui-playlist')
  })

  it('goes from a song row to its artist page', async () => {
    const page = app.page
    await page.getByTestId('nav-home').click()
    const link = page
      .getByTestId('home-songs')
      .getByTestId('song-row')
      .first()
      .locator('.song-artists a')
      .first()
    const name = (await link.textContent())!
    await link.click()
    await expect.poll(() => page.getByTestId('playlist-name').textContent()).toBe(name)
    await expect
      .poll(() => page.getByTestId('playlist-type').textContent(), { timeout: 10_000 })
      .toBe('Artist')
    await page.getByTestId('song-row').first().waitFor()
    await shootBothThemes(app, 'ui-artist')
  })

  it('moves through a list with the keyboard and plays with Enter', async () => {
    const page = app.page
    await page.getByTestId('nav-home').click()
    const rows = page.getByTestId('home-songs').getByTestId('song-row')
    await rows.first().focus()
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-index'))).toBe('1')
    const name = await rows.nth(1).getByTestId('song-name').textContent()
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByTestId('now-playing').textContent()).toContain(name!)
  })

  it('opens the song menu and closes it with Escape', async () => {
    const page = app.page
    await page.getByTestId('nav-home').click()
    await page.getByTestId('song-row').first().getByTestId('song-name').click({ button: 'right' })
    const menu = page.getByTestId('context-menu')
    await menu.waitFor()
    await expect
      .poll(() => menu.locator('[role="menuitem"]').allTextContents(), { timeout: 10_000 })
      .toEqual(expect.arrayContaining(['Play next', 'Add to queue']))
    await app.screenshot('ui-song-menu')
    await page.keyboard.press('Escape')
    await menu.waitFor({ state: 'detached' })
  })
})
