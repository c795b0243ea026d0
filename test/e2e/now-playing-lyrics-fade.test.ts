import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from './harness'
import type { App } from './harness'
import { findSongs, playSongs, playable, waitForClock } from './playback-support'

/**
 * The now-playing lyrics fade out at their edges without a mask on the scroller: a masked scroller is a
 * composited layer drawn through its mask on every frame and re-rastered on every line change (most of
 * the screen's compositing while a song played). Two strips over the edges paint the screen's backdrop.
 */
describe('the now-playing lyrics’ fades', () => {
  let app: App
  beforeAll(async () => {
    app = await startApp()
    await app.page.getByTestId('now-playing').waitFor()
  }, 120_000)
  afterAll(() => app?.close())

  it('masks nothing the lines are drawn in, and paints the screen’s backdrop over both edges', async () => {
    const { page } = app
    const [song] = await findSongs(
      app,
      1,
      (s) =>
        playable(s) && (s.meta?.lyric?.normal?.split('\n').filter((l) => l.startsWith('[')).length ?? 0) > 6,
    )
    await playSongs(page, [song])
    await page.getByTestId('player-open-now-playing').click()
    await page.getByTestId('now-playing-screen').waitFor()
    await waitForClock(page, 0.2, 60_000)
    await page.locator('[data-testid="lyrics-line"][aria-current="true"]').waitFor({ timeout: 30_000 })

    const state = await page.evaluate(() => {
      const scroller = document.querySelector<HTMLElement>('[data-testid="lyrics-scroller"]')!
      const screen = document.querySelector<HTMLElement>('[data-testid="now-playing-screen"]')!
      const masked: string[] = []
      for (let at: HTMLElement | null = scroller; at; at = at.parentElement)
        if (getComputedStyle(at).maskImage !== 'none') masked.push(at.className)
      for (const inside of scroller.querySelectorAll<HTMLElement>('*'))
        if (getComputedStyle(inside).maskImage !== 'none') masked.push(inside.className)
      const box = scroller.getBoundingClientRect()
      const fades = [...document.querySelectorAll<HTMLElement>('[data-testid="lyrics-fade"]')].map((fade) => {
        const style = getComputedStyle(fade)
        const rect = fade.getBoundingClientRect()
        return {
          sameBackdrop: style.backgroundImage === getComputedStyle(screen).backgroundImage,
          attachment: style.backgroundAttachment,
          pointerEvents: style.pointerEvents,
          atTop: Math.abs(rect.top - box.top) < 1,
          atBottom: Math.abs(rect.bottom - box.bottom) < 1,
          width: Math.round(rect.width) === Math.round(box.width),
        }
      })
      return { masked, fades, backdrop: getComputedStyle(screen).backgroundImage }
    })
    expect(state.masked).toEqual([])
    expect(state.backdrop).toContain('linear-gradient')
    expect(state.fades).toEqual([
      {
        sameBackdrop: true,
        attachment: 'fixed',
        pointerEvents: 'none',
        atTop: true,
        atBottom: false,
        width: true,
      },
      {
        sameBackdrop: true,
        attachment: 'fixed',
        pointerEvents: 'none',
        atTop: false,
        atBottom: true,
        width: true,
      },
    ])
  })
})
