import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from './harness'
import type { App } from './harness'
import { audioState } from './playback-support'
import { countPress, pressCounts, pressedSong, openFirstPlaylist } from '../support/press-counts'

/**
 * A click heard at once: a pressed song (resolved, its first chunk decoded, the context woken) has that
 * chunk scheduled by the double-click's own task, before the page updates to show the song (the queue's
 * and the player's re-render, several milliseconds, used to run first: each await on the way let it).
 * Each `AudioBufferSourceNode.start` records which of the list's rows the page shows as the current song
 * then (the row's `current` class).
 */

const STARTS = `(() => {
  window.__shown = []
  const start = AudioBufferSourceNode.prototype.start
  AudioBufferSourceNode.prototype.start = function (...args) {
    const rows = [...document.querySelectorAll('[data-testid="song-row"]')]
    window.__shown.push(rows.findIndex((row) => row.classList.contains('current')))
    return start.apply(this, args)
  }
  const resume = AudioContext.prototype.resume
  AudioContext.prototype.resume = function () {
    window.__context = this
    return resume.call(this)
  }
})()`

describe("A pressed song's play is scheduled before the page shows it", () => {
  let app: App
  beforeAll(async () => {
    app = await startApp()
    await app.page.evaluate(() => window.cadence.invoke('settings:update', { loudness: 'off' }))
    await openFirstPlaylist(app.page, 8)
    await countPress(app.page)
    // A string, so the bundler's helpers do not reach the page.
    await app.page.evaluate(STARTS)
  }, 120_000)
  afterAll(() => app?.close())

  const row = (index: number) => app.page.getByTestId('song-row').nth(index).getByTestId('song-name')
  const shown = () => app.page.evaluate('window.__shown') as Promise<number[]>
  const state = () => app.page.evaluate('window.__context?.state') as Promise<string | undefined>

  for (const index of [3, 6]) {
    it(`row ${index}: its first chunk is scheduled while the page still shows the song before as current`, async () => {
      // Nothing playing (a test before that failed may have left its song playing on).
      if (!(await audioState(app.page)).paused) await app.page.getByTestId('player-toggle').click()
      await expect.poll(async () => (await audioState(app.page)).paused, { timeout: 15_000 }).toBe(true)
      const before = await pressCounts(app.page)
      const startsBefore = (await shown()).length
      const name = await row(index).innerText()
      await row(index).dispatchEvent('pointerdown', { button: 0, isPrimary: true })
      await expect.poll(() => pressedSong(app.page), { timeout: 15_000 }).toBeTruthy()
      await expect
        .poll(async () => (await pressCounts(app.page)).buffers, { timeout: 15_000 })
        .toBeGreaterThan(before.buffers)
      // Woken again just before the double-click (the press's wake lasts 2 s).
      await row(index).dispatchEvent('pointerdown', { button: 0, isPrimary: true })
      await expect.poll(() => state(), { timeout: 15_000 }).toBe('running')
      await row(index).dblclick()
      await app.page.getByTestId('player-title').getByText(name, { exact: true }).waitFor()
      await expect
        .poll(async () => (await audioState(app.page)).time, { timeout: 30_000 })
        .toBeGreaterThan(0.5)
      // The page shows the row as current now, and did not yet when the first chunk was scheduled.
      const current = () =>
        app.page
          .getByTestId('song-row')
          .nth(index)
          .evaluate((el) => el.classList.contains('current'))
      await expect.poll(current, { timeout: 15_000 }).toBe(true)
      const first = (await shown())[startsBefore]
      expect(first).toBeDefined()
      expect(first).not.toBe(index)
      await app.page.getByTestId('player-toggle').click()
      await expect.poll(async () => (await audioState(app.page)).paused, { timeout: 15_000 }).toBe(true)
    }, 90_000)
  }
})
