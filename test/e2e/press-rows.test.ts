import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { startApp } from './harness'
import type { App } from './harness'
import { audioState, findSongs, playable, playSongs } from './playback-support'

/**
 * Every song row that plays on a double-click or Enter is prepared on its first press or its keyboard
 * focus, as a song list's rows are (`press-first-chunk.test.ts`): the queue panel's rows, the history's,
 * the statistics page's top songs. A prepared song is named on the output's hidden element
 * (`data-pressed`) once it is opened for its play; the play then takes it.
 */

const pressed = (app: App) =>
  app.page.getByTestId('player-audio').evaluate((el) => (el as HTMLElement).dataset.pressed)
describe('Every song row prepares its play on a press', () => {
  let app: App
  let songs: Song[]
  beforeAll(async () => {
    app = await startApp()
    await app.page.evaluate(() => window.cadence.invoke('settings:update', { loudness: 'off' }))
    songs = await findSongs(app, 3, playable)
    const active = await app.page.evaluate(() => window.cadence.invoke('sources:list'))
    // Heard earlier: the history and the top songs list them.
    for (const [i, song] of songs.entries())
      app.core.history.record({
        listenedAt: Date.now() - 60_000 * (i + 1),
        sourceId: active.activeId,
        songId: String(song.id),
        title: song.name,
        artists: song.artists.map((a) => a.name),
        durationMs: song.duration ?? 0,
      })
  }, 120_000)
  afterAll(() => app?.close())

  /** `song` is the one prepared: its media address (`…/song/<source>/<id>?br=…`) on the hidden element. */
  const preparedIs = (song: Song) =>
    expect.poll(() => pressed(app), { timeout: 20_000 }).toMatch(new RegExp(`/${song.id}\\?`))

  it('a queue panel row: pressed, then focused', async () => {
    await playSongs(app.page, songs)
    await expect.poll(async () => (await audioState(app.page)).paused, { timeout: 30_000 }).toBe(false)
    await app.page.getByTestId('player-toggle').click()
    await app.page.getByTestId('player-queue').click()
    const items = app.page.getByTestId('queue-item')
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBeGreaterThan(2)
    await items.nth(1).locator('.name').dispatchEvent('pointerdown', { button: 0, isPrimary: true })
    await preparedIs(songs[1])
    // The keyboard: focus kept on a row (before Enter).
    await items.nth(2).focus()
    await preparedIs(songs[2])
    await app.page.keyboard.press('Escape')
  }, 120_000)

  it('a history row: pressed, and its play button focused', async () => {
    await app.page.getByTestId('nav-history').click()
    const rows = app.page.getByTestId('history-row')
    const row = (song: Song) => rows.filter({ hasText: song.name }).first()
    // The first song is the one loaded (a press of it opens nothing more); the queue test left the third
    // one prepared.
    await row(songs[1]).waitFor({ timeout: 30_000 })
    await row(songs[1])
      .getByTestId('history-title')
      .dispatchEvent('pointerdown', { button: 0, isPrimary: true })
    await preparedIs(songs[1])
    await row(songs[2]).getByTestId('history-play').focus()
    await preparedIs(songs[2])
  }, 90_000)

  it('a top song of the statistics page: pressed', async () => {
    await app.page.getByTestId('nav-stats').click()
    const rows = app.page.getByTestId('stats-top-songs').getByTestId('stats-top-row')
    const row = rows.filter({ hasText: songs[1].name }).first()
    await row.waitFor({ timeout: 30_000 })
    await row.getByTestId('stats-top-name').dispatchEvent('pointerdown', { button: 0, isPrimary: true })
    await preparedIs(songs[1])
  }, 90_000)
})
