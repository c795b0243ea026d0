import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from './harness'
import type { App } from './harness'

/**
 * Search puts an artist named exactly what was searched for first, above the songs (a "Top result"), and
 * artist cards show their names whole when they fit on two lines.
 */

const POLL = { timeout: 15_000 }

describe('Search: top result; artist cards', () => {
  let app: App
  beforeAll(async () => {
    app = await startApp()
    await app.page.getByTestId('sidebar-account').waitFor({ timeout: 60_000 })
  })
  afterAll(() => app?.close())

  it('shows the artist named as searched above the songs, and opens its page', async () => {
    const page = app.page
    await page.getByTestId('nav-home').click()
    const card = page.getByTestId('home-artists').getByTestId('artist-card').first()
    const name = (await card.locator('.name').textContent())!.trim()
    await page.getByTestId('nav-search').click()
    // Typed in other casing: still the same artist.
    await page.getByTestId('search-input').fill(name.toUpperCase())
    const top = page.getByTestId('search-top')
    await expect.poll(() => top.locator('.name').textContent(), POLL).toBe(name)
    const order = await page.getByTestId('search-results').evaluate((el) => {
      const topAt = [...el.querySelectorAll('section')].findIndex((s) =>
        s.querySelector('[data-testid="search-top"]'),
      )
      const songsAt = [...el.querySelectorAll('section')].findIndex(
        (s) => s.dataset.testid === 'search-songs',
      )
      return { topAt, songsAt }
    })
    expect(order.topAt).toBe(0)
    expect(order.songsAt).toBeGreaterThan(order.topAt)
    await top.click()
    await expect.poll(() => page.getByTestId('playlist-name').textContent(), POLL).toBe(name)
    expect(await page.getByTestId('playlist-type').textContent()).toBe('Artist')

    // Words that name no artist exactly: no top result.
    await page.getByTestId('nav-search').click()
    await page.getByTestId('search-input').fill(name.slice(0, -2))
    await page.getByTestId('search-artists').waitFor()
    await expect.poll(() => page.getByTestId('search-top').count(), POLL).toBe(0)
  })

  it('shows artist names on cards whole (two lines at most), not cut with room to spare', async () => {
    const page = app.page
    await page.getByTestId('nav-home').click()
    const names = page.getByTestId('home-artists').locator('[data-testid="artist-card"] .name')
    await names.first().waitFor()
    const cut = await names.evaluateAll((all) =>
      all
        .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
        .map((el) => el.textContent),
    )
    expect(await names.count()).toBeGreaterThan(0)
    expect(cut).toEqual([])
  })
})
