import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from './harness'
import type { App } from './harness'
import { audioState } from './playback-support'
import { countPress, pressCounts, pressedSong, openFirstPlaylist } from '../support/press-counts'

/**
 * A pressed song's play runs on without a gap: the first chunk its press decoded (`Track.prime`) lasts
 * until the play's next read is scheduled, though that read (the first beyond the song's head, read
 * while the page starts the song's now-playing state) takes far longer than the quarter second a click's
 * own first chunk is. Counted by the output's underruns (`data-underruns`: a chunk scheduled after its
 * time, a gap heard). Loudness is off, so nothing but the playback reads the file.
 */

describe('A pressed song plays on from its first chunk without a gap', () => {
  let app: App
  beforeAll(async () => {
    app = await startApp()
    await app.page.evaluate(() => window.cadence.invoke('settings:update', { loudness: 'off' }))
    await openFirstPlaylist(app.page, 8)
    await countPress(app.page)
  }, 120_000)
  afterAll(() => app?.close())

  const row = (index: number) => app.page.getByTestId('song-row').nth(index).getByTestId('song-name')
  const underruns = () =>
    app.page.getByTestId('player-audio').evaluate((el) => Number((el as HTMLElement).dataset.underruns ?? 0))

  for (const index of [2, 5, 8]) {
    it(`row ${index}: pressed, then double-clicked, it plays 3 s with no underrun`, async () => {
      const before = await pressCounts(app.page)
      const underrunsBefore = await underruns()
      const name = await row(index).innerText()
      await row(index).dispatchEvent('pointerdown', { button: 0, isPrimary: true })
      // The press's first chunk made before the play.
      await expect
        .poll(async () => (await pressCounts(app.page)).buffers, { timeout: 15_000 })
        .toBeGreaterThan(before.buffers)
      expect(await pressedSong(app.page)).toBeTruthy()
      await row(index).dblclick()
      await app.page.getByTestId('player-title').getByText(name, { exact: true }).waitFor()
      await expect.poll(async () => (await audioState(app.page)).time, { timeout: 30_000 }).toBeGreaterThan(3)
      // Read on past the first chunk, and every chunk scheduled before its time.
      await expect
        .poll(async () => (await pressCounts(app.page)).starts.length, { timeout: 15_000 })
        .toBeGreaterThan(before.starts.length + 1)
      expect(await underruns()).toBe(underrunsBefore)
      await app.page.getByTestId('player-toggle').click()
      await expect.poll(async () => (await audioState(app.page)).paused, { timeout: 15_000 }).toBe(true)
    }, 90_000)
  }
})
