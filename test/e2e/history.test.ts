import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import type { Listen } from '@shared/ipc/history'
import { startApp } from './harness'
import type { App } from './harness'
import {
  audioState,
  findSongs,
  playSongs,
  playable,
  seekWithSlider,
  title,
  waitForClock,
} from './playback-support'

/**
 * Listening history (issue 37) through the real player and UI: a listen is recorded in main by the
 * listen rule from what was heard (a seek to the end is not hearing), "Recently played" shows it grouped
 * by day, pages older listens in as it scrolls, plays one again; the private session is main's.
 */

const DAY = 86_400_000

describe('Recently played', () => {
  let app: App
  let song: Song
  beforeAll(async () => {
    app = await startApp()
    // A song just over 30 s: it counts after about 15 s heard.
    ;[song] = await findSongs(
      app,
      1,
      (s) => playable(s) && (s.duration ?? 0) >= 30_000 && (s.duration ?? 0) <= 36_000,
    )
    await app.page.getByTestId('now-playing').waitFor()
  })
  afterAll(() => app?.close())

  it('a seek to the end of a song is not a listen', async () => {
    const { page } = app
    await playSongs(page, [song])
    await waitForClock(page, 0.3)
    await seekWithSlider(page, (song.duration ?? 0) - 4000)
    // The queue ends: the player stops at the start of the song.
    await expect.poll(() => audioState(page), { timeout: 20_000 }).toMatchObject({ paused: true })
    await expect.poll(() => page.getByTestId('player-position').innerText()).toBe('0:00')
    expect(app.core.history.state().count).toBe(0)
  })

  it('records a listen once half the song was heard, with what shows offline', async () => {
    const { page } = app
    await playSongs(page, [song])
    await expect
      .poll(() => app.core.history.page(5).rows, { timeout: 40_000, interval: 500 })
      .toMatchObject([{ sourceId: 'builtin', songId: String(song.id), title: song.name }])
    const [entry] = app.core.history.page(5).rows
    expect(entry.artists).toEqual(song.artists.map((a) => a.name))
    expect(entry.durationMs).toBeGreaterThan(29_000)
    // Heard from the start: listened_at is when the play began, a little over half the song ago.
    expect(Date.now() - entry.listenedAt).toBeGreaterThan((song.duration ?? 0) / 2 - 2000)
    await page.getByTestId('player-toggle').click()
  })

  it('shows listens newest first by day, pages older ones in as it scrolls, and plays one again', async () => {
    const { page } = app
    // 450 older listens over the days before today (recorded as main records any).
    const listens: Listen[] = Array.from({ length: 450 }, (_, i) => ({
      listenedAt: Date.now() - DAY - i * 3_600_000,
      sourceId: 'builtin',
      songId: String(1000 + i),
      title: `Older ${i}`,
      artists: ['Mira Vale'],
      durationMs: 200_000,
    }))
    for (const listen of listens) app.core.history.record(listen)

    await page.getByRole('link', { name: 'Recently played' }).click()
    await expect.poll(() => page.getByTestId('history-count').innerText()).toBe('451 listens')
    const days = page.getByTestId('history-day')
    await expect.poll(() => days.first().locator('h2').innerText()).toBe('Today')
    expect(await days.nth(1).locator('h2').innerText()).toBe('Yesterday')
    const rows = page.getByTestId('history-row')
    expect(await rows.first().getByTestId('history-title').innerText()).toBe(song.name)
    expect(await rows.nth(1).getByTestId('history-title').innerText()).toBe('Older 0')
    // A short first page; the older ones come 200 at a time as the list is scrolled to its end.
    await expect.poll(() => rows.count()).toBe(50)
    const older = page.getByRole('button', { name: 'Show older' })
    for (const shown of [250, 450, 451]) {
      await older.scrollIntoViewIfNeeded()
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(shown)
    }
    await expect.poll(() => older.count()).toBe(0)
    expect(await rows.last().getByTestId('history-title').innerText()).toBe('Older 449')

    // Play again, from the row's button.
    await rows.first().scrollIntoViewIfNeeded()
    await rows.first().getByTestId('history-play').click()
    await expect.poll(() => title(page)).toBe(song.name)
    await waitForClock(page, 0.3)
    await page.getByTestId('player-toggle').click()
  })

  it('the private session is main’s: switched on from the view, nothing is recorded', async () => {
    const { page } = app
    const toggle = page.locator('label', { has: page.getByTestId('history-private') })
    await toggle.click()
    await expect.poll(() => app.core.history.state().private).toBe(true)
    const count = app.core.history.state().count
    expect(app.core.history.record({ ...app.core.history.page(1).rows[0], listenedAt: Date.now() })).toBe(
      false,
    )
    expect(app.core.history.state().count).toBe(count)
    await toggle.click()
    await expect.poll(() => app.core.history.state().private).toBe(false)
  })
})
