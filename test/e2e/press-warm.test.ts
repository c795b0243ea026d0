import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from './harness'
import type { App } from './harness'
import { audioState } from './playback-support'

/**
 * A click heard at once, the first song too: while the app is idle the output starts its chunk worker
 * and reads a short first chunk of silence through it (`audio/chunk-warm.ts`: the MP3 container,
 * WebCodecs' decoder, the resampling, the stretch), so the first press of a row pays neither the
 * worker's start nor the decoder's first use. The page's `data-chunks-warm` (on the hidden element) is
 * the frames that warm-up read.
 */

const chunkWorkers = (app: App) => app.page.workers().filter((w) => /chunk\.worker/.test(w.url())).length
const warmed = (app: App) =>
  app.page.getByTestId('player-audio').evaluate((el) => Number((el as HTMLElement).dataset.chunksWarm ?? 0))

describe('The chunk worker is warm before the first press', () => {
  let app: App
  beforeAll(async () => {
    app = await startApp()
    await app.page.evaluate(() => window.cadence.invoke('settings:update', { loudness: 'off' }))
  }, 120_000)
  afterAll(() => app?.close())

  it('with no row pressed, the worker runs and has read a first chunk through the decoder', async () => {
    await expect.poll(() => chunkWorkers(app), { timeout: 30_000 }).toBe(1)
    // A quarter of a second at the context's rate (44.1 or 48 kHz).
    await expect.poll(() => warmed(app), { timeout: 30_000 }).toBeGreaterThan(8_000)
    expect((await audioState(app.page)).paused).toBe(true)
    expect(app.mediaRequests.length).toBe(0)
  }, 60_000)

  it('the first song played uses that worker (no second one started)', async () => {
    await app.page.getByTestId('nav-home').click()
    await app.page.getByTestId('home-playlists').getByTestId('playlist-card').first().click()
    const row = app.page.getByTestId('song-row').nth(2)
    await row.waitFor({ timeout: 30_000 })
    await row.getByTestId('song-name').dblclick()
    await expect.poll(async () => (await audioState(app.page)).time, { timeout: 30_000 }).toBeGreaterThan(0.5)
    expect(chunkWorkers(app)).toBe(1)
    await app.page.getByTestId('player-toggle').click()
    await expect.poll(async () => (await audioState(app.page)).paused, { timeout: 15_000 }).toBe(true)
  }, 90_000)
})
