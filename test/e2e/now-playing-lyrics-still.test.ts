import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from './harness'
import type { App } from './harness'
import { findSongs, playSongs, playable, waitForClock } from './playback-support'

/**
 * A lyric line change on the now-playing screen draws one frame, not an animation: the new line is
 * centred at once (a smooth scroll drew 15–25 frames, the lyrics column re-rastered in each) and takes its
 * scale and colour at once (a transition ticked both lines on the main thread for about 12 frames). What
 * the page counts: the scroller's `scroll` events (one per jump; a smooth scroll fires one per frame) and
 * the transitions started in it, over line changes the song itself makes while it plays.
 */
describe('the now-playing lyrics at a line change', () => {
  let app: App
  beforeAll(async () => {
    app = await startApp()
    await app.page.getByTestId('now-playing').waitFor()
  }, 120_000)
  afterAll(() => app?.close())

  it('centre the new line in one jump, with no transition', async () => {
    const { page } = app
    const [song] = await findSongs(
      app,
      1,
      (s) =>
        playable(s) &&
        (s.duration ?? 0) > 30_000 &&
        (s.meta?.lyric?.normal?.split('\n').filter((l) => l.startsWith('[')).length ?? 0) > 6,
    )
    await playSongs(page, [song])
    await page.getByTestId('player-open-now-playing').click()
    await page.getByTestId('now-playing-screen').waitFor()
    await waitForClock(page, 0.2, 60_000)
    await page.locator('[data-testid="lyrics-line"][aria-current="true"]').waitFor({ timeout: 30_000 })

    await page.evaluate(() => {
      const scroller = document.querySelector<HTMLElement>('[data-testid="lyrics-scroller"]')!
      const motion = { lines: 0, scrolls: 0, transitions: 0 }
      ;(window as unknown as { lyricMotion: typeof motion }).lyricMotion = motion
      scroller.addEventListener('scroll', () => motion.scrolls++)
      scroller.addEventListener('transitionrun', () => motion.transitions++)
      new MutationObserver((records) => {
        for (const record of records)
          if ((record.target as Element).getAttribute('aria-current') === 'true') motion.lines++
      }).observe(scroller, { subtree: true, attributeFilter: ['aria-current'] })
    })
    const motion = () =>
      page.evaluate(
        () =>
          (window as unknown as { lyricMotion: { lines: number; scrolls: number; transitions: number } })
            .lyricMotion,
      )
    // Two line changes of the song as it plays (a line every two bars: some 10 s).
    await expect
      .poll(async () => (await motion()).lines, { timeout: 60_000, interval: 200 })
      .toBeGreaterThanOrEqual(2)
    // The line being sung is centred (where the list can scroll that far).
    await expect
      .poll(
        () =>
          page.evaluate(() => {
            const box = document.querySelector<HTMLElement>('[data-testid="lyrics-scroller"]')!
            const line = box.querySelector<HTMLElement>('[aria-current="true"]')!
            const target = line.offsetTop - box.clientHeight / 2 + line.offsetHeight / 2
            const reachable = Math.max(0, Math.min(target, box.scrollHeight - box.clientHeight))
            return Math.abs(box.scrollTop - reachable)
          }),
        { timeout: 30_000 },
      )
      .toBeLessThan(2)
    const seen = await motion()
    expect(seen.transitions).toBe(0)
    expect(seen.scrolls).toBeGreaterThanOrEqual(1)
    expect(seen.scrolls).toBeLessThanOrEqual(seen.lines)
  }, 180_000)
})
