import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Listen } from '@shared/ipc/history'
import { startApp } from './harness'
import type { App } from './harness'
import { shootForDocsBothThemes } from './doc-shots'
import { findSongs, playable, title } from './playback-support'
import type { Song } from '@shared/api/models'

/**
 * "Your listening, in pictures" (issue 37) through the real UI: opened from Recently played and from the
 * sidebar, the figures main computes from history for each span, the chart of listening per day drawn in
 * the theme's colours, a top song played from it.
 */

const DAY = 86_400_000
const MIN = 60_000

describe('Your listening, in pictures', () => {
  let app: App
  let songs: Song[]
  beforeAll(async () => {
    app = await startApp()
    await app.page.getByTestId('now-playing').waitFor()
    songs = await findSongs(app, 3, playable)
  })
  afterAll(() => app?.close())

  /** A listen of the catalogue's song `n` (1–3), named by the test's own artists and album. */
  function listen(at: number, n: number, artists: string[], album: string, minutes: number): Listen {
    const song = songs[n - 1]
    return {
      listenedAt: at,
      sourceId: 'builtin',
      songId: String(song.id),
      title: song.name,
      artists,
      album,
      albumId: album.length.toString(),
      durationMs: minutes * MIN,
    }
  }

  it('opens from Recently played with time listened and the top songs, artists and albums of each span', async () => {
    const { page } = app
    const now = Date.now()
    // This week: song 1 three times (4 min each), song 2 once (3 min). Sixty days ago: song 3 six times
    // (10 min each).
    for (let i = 0; i < 3; i++)
      app.core.history.record(listen(now - (i + 1) * 3_600_000, 1, ['Mira Vale', 'Ode'], 'Blue Hour', 4))
    app.core.history.record(listen(now - 2 * DAY, 2, ['Kestrel'], 'Low Tide', 3))
    for (let i = 0; i < 6; i++)
      app.core.history.record(listen(now - 60 * DAY - i * MIN, 3, ['Ode'], 'Far', 10))

    await page.getByRole('link', { name: 'Recently played' }).click()
    await page.getByTestId('history-stats-link').click()
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe('Your listening, in pictures')

    // The last month (the span it opens on): 15 minutes over 4 listens.
    await expect.poll(() => page.getByTestId('stats-listened').innerText()).toBe('15 min 0 s')
    expect(await page.getByTestId('stats-listens').innerText()).toBe('4')
    const names = (list: string) => page.getByTestId(list).getByTestId('stats-top-name').allInnerTexts()
    expect(await names('stats-top-songs')).toEqual([songs[0].name, songs[1].name])
    expect(await names('stats-top-artists')).toEqual(['Mira Vale', 'Ode', 'Kestrel'])
    expect(await names('stats-top-albums')).toEqual(['Blue Hour', 'Low Tide'])
    // One bar a day of the last 30 (and today), 15 minutes in all, in the theme's accent.
    const chart = page.getByTestId('stats-chart')
    await expect.poll(() => chart.getAttribute('data-bars')).toBe('31')
    expect(await chart.getAttribute('data-minutes')).toBe('15')

    // All time: song 3 leads, Ode first among artists.
    await page.getByRole('radio', { name: 'All time' }).check({ force: true })
    await expect.poll(() => page.getByTestId('stats-listened').innerText()).toBe('1 h 15 min')
    expect(await names('stats-top-songs')).toEqual([songs[2].name, songs[0].name, songs[1].name])
    expect((await names('stats-top-artists'))[0]).toBe('Ode')
    await expect.poll(() => chart.getAttribute('data-minutes')).toBe('75')
    expect(Number(await chart.getAttribute('data-bars'))).toBeGreaterThanOrEqual(61)

    await page.getByRole('radio', { name: 'Last week' }).check({ force: true })
    await expect.poll(() => page.getByTestId('stats-listens').innerText()).toBe('4')
    await expect.poll(() => chart.getAttribute('data-bars')).toBe('8')
  })

  it('draws the chart in the colours of the theme shown', async () => {
    const { page } = app
    const chart = page.getByTestId('stats-chart')
    const accent = () =>
      page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--accent').trim())
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => window.cadence.invoke('settings:update', { theme: t }), theme)
      await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' })
      const colour = await accent()
      await expect.poll(() => chart.getAttribute('data-colour')).toBe(colour)
    }
    // The two themes' accents differ, so the chart did follow the switch.
    expect(await accent()).not.toBe(
      await page.evaluate(() => {
        document.documentElement.dataset.theme = 'light'
        const light = getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()
        document.documentElement.dataset.theme = 'dark'
        return light
      }),
    )
  })

  it('is in the sidebar, and plays a top song on double-click', async () => {
    const { page } = app
    await page.getByRole('link', { name: 'Home' }).click()
    await page.getByTestId('nav-stats').click()
    await page.getByRole('radio', { name: 'Last month' }).check({ force: true })
    const top = page.getByTestId('stats-top-songs').getByTestId('stats-top-row').first()
    await expect.poll(() => top.getByTestId('stats-top-name').innerText()).toBe(songs[0].name)
    await shootForDocsBothThemes(page, 'listening-stats')
    await top.dblclick()
    await expect.poll(() => title(page)).toBe(songs[0].name)
    await page.getByTestId('player-toggle').click()
  })
})
