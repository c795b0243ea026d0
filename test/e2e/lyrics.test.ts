import { mkdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { audioState, findSongs, playSongs, playable, waitForClock } from './playback-support'

/** The highlighted line's start and the next line's start (ms), with the audio clock read in the same frame. */
function highlight(page: Page) {
  return page.evaluate(() => {
    const audio = document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement
    const lines = [...document.querySelectorAll<HTMLElement>('[data-testid="lyrics-line"]')]
    const index = lines.findIndex((line) => line.getAttribute('aria-current') === 'true')
    return {
      clockMs: audio.currentTime * 1000,
      index,
      start: index >= 0 ? Number(lines[index].dataset.time) : -1,
      nextStart: index + 1 < lines.length ? Number(lines[index + 1].dataset.time) : Infinity,
    }
  })
}

describe('Lyrics', () => {
  let app: App
  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    app = await startApp()
    await app.page.getByTestId('now-playing').waitFor()
  })
  afterAll(() => app?.close())

  it('highlights the line being sung as the song plays, and seeks when a line is clicked', async () => {
    const { page } = app
    const [song] = await findSongs(
      app,
      1,
      (s) =>
        playable(s) && (s.meta?.lyric?.normal?.split('\n').filter((l) => l.startsWith('[')).length ?? 0) > 6,
    )
    await playSongs(page, [song])
    await page.getByTestId('player-lyrics').click()
    await page.getByTestId('lyrics-view').waitFor()
    await waitForClock(page, 0.2)

    await page.locator('[data-testid="lyrics-line"][aria-current="true"]').waitFor({ timeout: 15_000 })
    const first = await highlight(page)
    // timeupdate runs at about 4 Hz: the highlight may trail the clock by up to ~300 ms.
    expect(first.start).toBeLessThanOrEqual(first.clockMs + 50)
    expect(first.nextStart).toBeGreaterThan(first.clockMs - 400)

    const lines = page.getByTestId('lyrics-line')
    const target = (await lines.count()) - 2
    const targetMs = Number(await lines.nth(target).getAttribute('data-time'))
    await lines.nth(target).locator('button').click()
    await page.waitForFunction(
      (ms) =>
        (document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement).currentTime * 1000 >= ms,
      targetMs,
    )
    await expect.poll(async () => (await highlight(page)).index, { timeout: 3000 }).toBe(target)
    const after = await highlight(page)
    expect(after.clockMs).toBeGreaterThanOrEqual(targetMs - 50)
    expect(after.clockMs).toBeLessThan(targetMs + 2000)
    await app.screenshot('lyrics-view')
  })

  it('shifts the timing by 0.5 s steps', async () => {
    const { page } = app
    await page.getByTestId('lyrics-later').click()
    expect(await page.getByTestId('lyrics-offset').innerText()).toBe('+0.5 s')
    await page.getByTestId('lyrics-offset').click()
    expect(await page.getByTestId('lyrics-offset').innerText()).toBe('0.0 s')
  })

  it('lights word-timed lyrics word by word', async () => {
    const { page } = app
    const [song] = await findSongs(app, 1, (s) => playable(s) && !!s.meta?.lyric?.wordforword)
    await playSongs(page, [song])
    await waitForClock(page, 0.2)
    await page.locator('[data-testid="lyrics-word"].sung').first().waitFor({ timeout: 15_000 })
    const words = page.locator('[aria-current="true"] [data-testid="lyrics-word"]')
    expect(await words.count()).toBeGreaterThan(1)
    await app.screenshot('lyrics-word-timed')
    expect((await audioState(page)).paused).toBe(false)
  })
})
