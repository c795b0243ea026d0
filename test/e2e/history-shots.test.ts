import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { startApp } from './harness'
import type { App } from './harness'
import { shootForDocsBothThemes } from './doc-shots'
import { findSongs, playSongs, playable, waitForClock } from './playback-support'

/**
 * The docs' pictures of issue 37's views, in both themes: Recently played with a few days of listens
 * (`docs/screenshots/recently-played-*.png`) and the sleep timer's menu open in the player bar
 * (`sleep-timer-menu-*.png`). "Your listening, in pictures" is shot by history-stats.test.ts.
 */

const MINUTE = 60_000
const HOUR = 60 * MINUTE

describe('docs screenshots: Recently played and the sleep timer', () => {
  let app: App
  let songs: Song[]
  beforeAll(async () => {
    app = await startApp()
    songs = await findSongs(app, 8, (s) => playable(s) && !!s.album?.cover)
    await app.page.getByTestId('now-playing').waitFor()
    // Listens over today and the two days before, as the listen recorder sends them: today's in the
    // last minutes (never before midnight), the others in the afternoon of their day, whatever the hour
    // the test runs at.
    const midnight = new Date().setHours(0, 0, 0, 0)
    const at = (i: number) =>
      i < 3
        ? Math.max(midnight, Date.now() - i * MINUTE)
        : new Date(midnight - (i < 6 ? 12 : 36) * HOUR).setHours(14, i, 0, 0)
    songs.forEach((song, i) =>
      app.core.history.record({
        listenedAt: at(i),
        sourceId: 'builtin',
        songId: String(song.id),
        title: song.name,
        artists: song.artists.map((a) => a.name),
        ...(song.album ? { album: song.album.name, albumId: String(song.album.id) } : {}),
        durationMs: song.duration ?? 0,
        ...(song.album?.cover ? { cover: song.album.cover } : {}),
      }),
    )
  })
  afterAll(() => app?.close())

  it('Recently played, grouped by day', async () => {
    const { page } = app
    await page.getByTestId('nav-history').click()
    await expect.poll(() => page.getByTestId('history-row').count()).toBe(songs.length)
    await expect.poll(() => page.getByTestId('history-day').count()).toBe(3)
    await shootForDocsBothThemes(page, 'recently-played')
  })

  it('the sleep timer menu in the player bar', async () => {
    const { page } = app
    await playSongs(page, songs.slice(0, 2))
    await waitForClock(page, 0.3)
    await page.getByTestId('player-toggle').click()
    await page.getByTestId('player-sleep').click()
    const menu = page.getByTestId('player-sleep-menu')
    await expect.poll(() => menu.getByRole('menuitem').count()).toBeGreaterThan(5)
    await shootForDocsBothThemes(page, 'sleep-timer-menu')
    await expect.poll(() => menu.isVisible()).toBe(true)
  })
})
