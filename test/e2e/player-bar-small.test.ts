import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from './harness'
import type { App } from './harness'

/**
 * The player bar and its panels in a small window (900×600): the side buttons stay off the seek bar, the
 * queue opens on the song playing and counts its songs, and a notice stays in sight beside an open panel.
 */

interface Box {
  x: number
  y: number
  width: number
  height: number
}
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

const POLL = { timeout: 15_000 }

describe('The player bar at 900×600', () => {
  let app: App
  beforeAll(async () => {
    app = await startApp({ viewport: { width: 900, height: 600 } })
    await app.page.getByTestId('sidebar-account').waitFor({ timeout: 60_000 })
  })
  afterAll(() => app?.close())

  const box = async (selector: string) => (await app.page.locator(selector).first().boundingBox())!

  it('keeps the side buttons off the seek bar and its times', async () => {
    const page = app.page
    await page.getByTestId('nav-home').click()
    const rows = page.getByTestId('home-songs').getByTestId('song-row')
    const name = (await rows.last().getByTestId('song-name').textContent())!
    await rows.last().getByTestId('song-name').dblclick()
    await expect.poll(() => page.getByTestId('player-title').textContent(), POLL).toBe(name)
    await expect
      .poll(() => page.getByTestId('player-duration').textContent(), POLL)
      .toMatch(/^[1-9]\d*:\d\d|^0:[1-5]\d|^0:0[1-9]/)
    const seek = await box('.player-seek-bar')
    const duration = await box('[data-testid="player-duration"]')
    for (const id of ['player-lyrics', 'player-queue', 'player-sound', 'player-mini']) {
      const button = await box(`[data-testid="${id}"]`)
      expect(overlap(button, duration), id).toBe(false)
      expect(button.x, id).toBeGreaterThanOrEqual(seek.x + seek.width)
      expect(button.x + button.width, id).toBeLessThanOrEqual(900)
    }
    await app.screenshot('player-bar-900x600')
  })

  it('opens the queue on the song playing, scrolled to it', async () => {
    const page = app.page
    // The longest playlist in the library (more songs than the panel shows), played from its last song.
    await page.getByTestId('nav-library').click()
    // The library's own cards (not Home's, still on screen for a moment after the click).
    const cards = page.getByTestId('library-grid').getByTestId('playlist-card')
    await cards.first().waitFor()
    const counts = await cards.evaluateAll((all) =>
      all.map((card) => Number(/(\d+) songs/.exec(card.querySelector('.meta')?.textContent ?? '')?.[1] ?? 0)),
    )
    const longest = cards.nth(counts.indexOf(Math.max(...counts)))
    const href = (await longest.getAttribute('href'))!
    await page.getByTestId('library-grid').locator(`[data-testid="playlist-card"][href="${href}"]`).click()
    await expect.poll(() => new URL(page.url()).hash, POLL).toBe(href)
    await page.getByTestId('playlist-name').waitFor()
    const rows = page.locator('main [data-testid="song-row"]')
    await expect.poll(() => rows.count(), POLL).toBeGreaterThan(20)
    const name = (await rows.last().getByTestId('song-name').textContent())!
    await rows.last().getByTestId('song-name').dblclick()
    await expect.poll(() => page.getByTestId('player-title').textContent(), POLL).toBe(name)
    await page.getByTestId('player-queue').click()
    const current = page.locator('[data-testid="queue-item"][aria-current="true"]')
    await current.waitFor()
    expect(await page.getByTestId('queue-item').count()).toBeGreaterThan(20)
    const list = await box('[data-testid="queue-panel"] ol')
    await expect
      .poll(async () => {
        const item = (await current.boundingBox())!
        return item.y >= list.y && item.y + item.height <= list.y + list.height
      }, POLL)
      .toBe(true)
  })

  it('shows a notice beside the open queue, not under it', async () => {
    const page = app.page
    if (!(await page.getByTestId('queue-panel').isVisible())) await page.getByTestId('player-queue').click()
    await page.getByTestId('queue-panel').waitFor()
    // Play with an empty queue: the player says what to do, in sight while the queue is open.
    if (await page.getByTestId('queue-clear').count()) await page.getByTestId('queue-clear').click()
    await expect.poll(() => page.getByTestId('queue-item').count(), POLL).toBe(0)
    await page.getByTestId('player-toggle').click()
    const notice = page.getByTestId('player-notice')
    await notice.waitFor()
    const panel = await box('[data-testid="queue-panel"]')
    expect(overlap((await notice.boundingBox())!, panel)).toBe(false)
    const topmost = await notice.evaluate((el) => {
      const r = el.getBoundingClientRect()
      return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2))
    })
    expect(topmost).toBe(true)
    await app.screenshot('player-notice-queue-900x600')
    // The queue counts its songs in the plural form the number takes.
    const count = page.locator('[data-testid="queue-panel"] .count')
    await expect.poll(() => count.textContent(), POLL).toBe('0 songs')
    await page
      .locator('main [data-testid="song-row"]')
      .first()
      .getByTestId('song-name')
      .click({ button: 'right' })
    await page.locator('[data-menu-item="add-to-queue"]').click()
    await expect.poll(() => count.textContent(), POLL).toBe('1 song')
  })
})
