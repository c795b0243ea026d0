import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { startApp } from './harness'
import type { App } from './harness'
import { findSongs, playSongs, playable, waitForClock } from './playback-support'

/**
 * Autoplay and the sleep timer together, through the real player: while the timer waits for the end of
 * the queue, autoplay adds nothing (the queue must be able to end); cancelled, autoplay fills as usual.
 */

describe('Autoplay with a sleep timer at the end of the queue', () => {
  let app: App
  let songs: Song[]
  beforeAll(async () => {
    app = await startApp({ autoplay: true })
    songs = await findSongs(app, 4, playable)
    await app.page.getByTestId('now-playing').waitFor()
  })
  afterAll(() => app?.close())

  it('adds nothing while the timer waits for the queue to end, and fills the queue once it is cancelled', async () => {
    const { page } = app
    const items = page.getByTestId('queue-item')
    // Four songs: three left after the first, so autoplay does not want more yet.
    await playSongs(page, songs)
    await waitForClock(page, 0.3)
    await page.getByTestId('player-sleep').click()
    await page.getByTestId('player-sleep-menu').getByRole('menuitem', { name: 'End of the queue' }).click()
    await expect.poll(() => page.getByTestId('player-sleep-left').innerText()).toBe('Sleep after the queue')
    await page.getByTestId('player-queue').click()
    await expect.poll(() => items.count()).toBe(4)

    // On to the third song: one left, where autoplay would add more.
    for (const at of [1, 2]) {
      await page.getByTestId('player-next').click()
      await expect.poll(() => page.getByTestId('player-title').innerText()).toBe(songs[at].name)
    }
    await waitForClock(page, 0.3)
    // It looks on every change of the queue or the timer; give it time, then the queue is as it was.
    await page.waitForTimeout(3000)
    expect(await items.count()).toBe(4)
    expect(await page.getByTestId('queue-autoplay').count()).toBe(0)

    await page.getByTestId('player-sleep-cancel').click()
    await expect.poll(() => items.count(), { timeout: 20_000 }).toBeGreaterThan(4)
    expect(await page.getByTestId('queue-autoplay').count()).toBeGreaterThan(0)
    await page.getByTestId('player-toggle').click()
  })
})
