import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from './harness'
import type { App } from './harness'

/**
 * Back and Forward through the pages visited: the top bar's buttons, Alt+←/→, the mouse's back and
 * forward buttons (sent by Chromium itself over CDP, so its own default is in play too), and a list page
 * scrolled where it was on Back.
 */

const BIG = 'The Big Archive'
/** Polls with room for a busy machine. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 })

describe('Back and Forward', () => {
  let app: App
  beforeAll(async () => {
    // The demo's 10,000-song "The Big Archive" is the long list.
    app = await startApp({ demo: 10_000 })
    await app.page.getByTestId('sidebar-account').waitFor({ timeout: 60_000 })
  })
  afterAll(() => app?.close())

  const hash = () => new URL(app.page.url()).hash
  /** The mouse's back (button 3) or forward (button 4) button, pressed and released over the page. */
  async function mouseButton(button: 'back' | 'forward') {
    const cdp = await app.context.newCDPSession(app.page)
    const at = { x: 600, y: 300, button, clickCount: 1 }
    await cdp.send('Input.dispatchMouseEvent', {
      type: 'mousePressed',
      buttons: button === 'back' ? 8 : 16,
      ...at,
    })
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', buttons: 0, ...at })
    await cdp.detach()
  }

  it('goes artist → album → playlist, Back twice to the artist, Forward again', async () => {
    const page = app.page
    await page.getByTestId('nav-home').click()
    const link = page
      .getByTestId('home-songs')
      .getByTestId('song-row')
      .first()
      .locator('.song-artists a')
      .first()
    const artist = (await link.textContent())!
    await link.click()
    await poll(() => page.getByTestId('playlist-name').textContent()).toBe(artist)
    const artistHash = hash()
    expect(artistHash).toMatch(/^#\/artist\//)
    await poll(() => page.getByTestId('nav-back').isEnabled()).toBe(true)
    await poll(() => page.getByTestId('nav-forward').isDisabled()).toBe(true)

    await page.getByTestId('artist-albums').getByTestId('album-card').first().click()
    await poll(hash).toMatch(/^#\/album\//)
    const albumHash = hash()
    const sidebarPlaylist = page.getByTestId('sidebar-source-playlists').getByRole('link').first()
    const playlist = (await sidebarPlaylist.textContent())!.trim()
    await sidebarPlaylist.click()
    await poll(() => page.getByTestId('playlist-name').textContent()).toBe(playlist)
    const playlistHash = hash()

    await page.getByTestId('nav-back').click()
    await poll(hash).toBe(albumHash)
    await poll(() => page.getByTestId('nav-forward').isEnabled()).toBe(true)
    await page.getByTestId('nav-back').click()
    await poll(hash).toBe(artistHash)
    await poll(() => page.getByTestId('playlist-name').textContent()).toBe(artist)

    await page.getByTestId('nav-forward').click()
    await poll(hash).toBe(albumHash)
    await page.keyboard.press('Alt+ArrowRight')
    await poll(hash).toBe(playlistHash)
    await poll(() => page.getByTestId('nav-forward').isDisabled()).toBe(true)
    await page.keyboard.press('Alt+ArrowLeft')
    await poll(hash).toBe(albumHash)

    // The mouse's buttons go one page each way (Chromium's own navigation is held back, else two).
    await mouseButton('back')
    await poll(hash).toBe(artistHash)
    await mouseButton('forward')
    await poll(hash).toBe(albumHash)
    await mouseButton('forward')
    await poll(hash).toBe(playlistHash)
    await mouseButton('back')
    await poll(hash).toBe(albumHash)
  })

  it('returns to where a long list was scrolled on Back; the page opened from it starts at the top', async () => {
    const page = app.page
    const main = page.locator('main#main')
    await page.getByTestId('nav-library').click()
    await page.getByTestId('playlist-card').filter({ hasText: BIG }).first().click()
    await poll(() => page.getByTestId('playlist-name').textContent()).toBe(BIG)
    await page.locator('main [data-testid="song-row"]').first().waitFor()
    await main.evaluate((el) => el.scrollTo({ top: 6000 }))
    await poll(() => main.evaluate((el) => Math.round(el.scrollTop))).toBe(6000)
    // A row in view: its album link opens the album page.
    const row = page.locator('main [data-testid="song-row"][data-index="130"]')
    await row.waitFor()
    const name = await row.getByTestId('song-name').textContent()
    await row.locator('a[data-album]').first().click()
    await poll(hash).toMatch(/^#\/album\//)
    await poll(() => main.evaluate((el) => Math.round(el.scrollTop))).toBe(0)

    await page.getByTestId('nav-back').click()
    await poll(() => page.getByTestId('playlist-name').textContent()).toBe(BIG)
    await poll(() => main.evaluate((el) => Math.round(el.scrollTop))).toBe(6000)
    await poll(() =>
      page.locator('main [data-testid="song-row"][data-index="130"]').getByTestId('song-name').textContent(),
    ).toBe(name)
  })
})
