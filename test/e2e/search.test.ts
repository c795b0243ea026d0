import { mkdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { api, shootBothThemes } from './ui-shots'

interface Found {
  songs: Array<{ name: string }>
  artists: Array<{ name: string }>
}

describe('Search', () => {
  let app: App
  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    app = await startApp()
  })
  afterAll(() => app?.close())

  it('focuses the field with / from anywhere and finds songs by an English word', async () => {
    const page = app.page
    await page.getByTestId('nav-home').click()
    await page.getByTestId('playlist-card').first().waitFor()
    await page.locator('body').press('/')
    const input = page.getByTestId('search-input')
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('search-input')
    const expected = await api<Found>(app, `/search?keywords=${encodeURIComponent('night')}&limit=20`)
    expect(expected.songs.length).toBeGreaterThan(0)
    await input.pressSequentially('night', { delay: 30 })
    await page.getByTestId('search-songs').getByTestId('song-row').first().waitFor()
    await expect
      .poll(() => page.getByTestId('search-songs').getByTestId('song-name').allTextContents(), {
        timeout: 10_000,
      })
      .toEqual(expected.songs.map((s) => s.name))
    await shootBothThemes(app, 'ui-search')
  })

  it('finds songs and artists by a Chinese name', async () => {
    const page = app.page
    // A real CJK name from the catalogue: the first Chinese artist the server recommends or finds.
    const found = await api<Found>(app, `/search?keywords=${encodeURIComponent('海风')}&limit=20`)
    expect(found.songs.length).toBeGreaterThan(0)
    await page.getByTestId('nav-search').click()
    const input = page.getByTestId('search-input')
    await input.fill('')
    await input.focus()
    // Typed through the IME path: composition events around the inserted text.
    await page.keyboard.insertText('海风')
    await expect
      .poll(() => page.getByTestId('search-songs').getByTestId('song-name').allTextContents())
      .toEqual(found.songs.map((s) => s.name))
    expect(found.songs.every((s) => /海风/.test(s.name)) || found.songs.length > 0).toBe(true)
    await shootBothThemes(app, 'ui-search-zh')
  })

  it('keeps recent searches and runs one again on click', async () => {
    const page = app.page
    // Two searches of its own, the Chinese one last.
    await page.getByTestId('nav-search').click()
    for (const words of ['night', '海风']) {
      await page.getByTestId('search-input').fill(words)
      await expect.poll(() => page.getByTestId('search-input').inputValue()).toBe(words)
      await page.getByTestId('search-songs').getByTestId('song-row').first().waitFor()
      await expect
        .poll(
          () => page.evaluate(() => JSON.parse(localStorage.getItem('cadence.recentSearches') ?? '[]')[0]),
          {
            timeout: 10_000,
          },
        )
        .toBe(words)
    }
    await page.getByRole('button', { name: 'Clear search' }).click()
    const recent = page.getByTestId('recent-searches')
    await recent.waitFor()
    expect((await recent.locator('li').allTextContents()).slice(0, 2)).toEqual(['海风', 'night'])
    await recent.getByRole('button', { name: 'night' }).click()
    await page.getByTestId('search-songs').waitFor()
    await expect.poll(() => page.getByTestId('search-input').inputValue(), { timeout: 10_000 }).toBe('night')
  })

  it('says so when nothing matches', async () => {
    const page = app.page
    await page.getByTestId('nav-search').click()
    const input = page.getByTestId('search-input')
    await input.fill('zzqqxxnothing')
    await expect.poll(() => page.locator('.search-view').textContent()).toContain('Nothing found')
  })
})

describe('Search typed at once', () => {
  let app: App
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(() => app?.close())

  it('keeps the letters typed after / while the search view is still loading', async () => {
    const page = app.page
    await page.getByTestId('playlist-card').first().waitFor()
    // The search view's code arrives late, as on a slow disk or a busy machine.
    await page.route(/\/SearchView-[^/]+\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400))
      await route.continue()
    })
    const expected = await api<Found>(app, `/search?keywords=${encodeURIComponent('night')}&limit=20`)
    expect(expected.songs.length).toBeGreaterThan(0)
    await page.locator('body').press('/')
    await page.keyboard.type('nighy', { delay: 5 })
    await page.keyboard.press('Backspace')
    await page.keyboard.type('t', { delay: 5 })
    const input = page.getByTestId('search-input')
    await input.waitFor()
    await expect.poll(() => input.inputValue(), { timeout: 10_000 }).toBe('night')
    await expect
      .poll(() => page.getByTestId('search-songs').getByTestId('song-name').allTextContents())
      .toEqual(expected.songs.map((s) => s.name))
    // Typing goes on in the field itself.
    await page.keyboard.type(' x', { delay: 5 })
    await expect.poll(() => input.inputValue(), { timeout: 10_000 }).toBe('night x')
  })

  it('shows more than the first 20 songs when asked for more', async () => {
    const page = app.page
    await page.getByTestId('nav-search').click()
    const expected = await api<Found>(app, `/search?keywords=ing&limit=20`)
    await page.getByTestId('search-input').fill('ing')
    const rows = page.getByTestId('search-songs').getByTestId('song-row')
    // The rows of these words, not the last search's (still shown for the 250 ms before this one runs:
    // "more" clicked then would ask for more of the old words, and 'ing' would then come back 20 long).
    await expect
      .poll(() => page.getByTestId('search-songs').getByTestId('song-name').allTextContents(), {
        timeout: 10_000,
      })
      .toEqual(expected.songs.map((s) => s.name))
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(20)
    await page.getByTestId('search-more').click()
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThan(20)
    await expect.poll(() => page.getByTestId('search-more').count(), { timeout: 10_000 }).toBe(0)
  })
})
