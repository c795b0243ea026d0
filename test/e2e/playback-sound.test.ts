import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { Song } from '@shared/api/models'
import { startApp } from './harness'
import type { App } from './harness'
import { findSongs, playSongs, playable, seekWithSlider, title, waitForClock } from './playback-support'

/**
 * The sound settings of issue 22 in Chromium's real Web Audio: speed (the pitch kept, the song's clock
 * running faster than the wall clock) and crossfade (the next song starting before the last one ended).
 * Settings are changed as Settings does, through `settings:update`.
 */

type Sample = { wall: number; src: string; time: number; crossfade?: string; ended: boolean }

/** Records the hidden element's clock every 20 ms in the page (no bridge latency in between). */
function startRecording(page: Page): Promise<void> {
  return page.evaluate(() => {
    const audio = document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement
    const samples: Sample[] = []
    let ended = false
    audio.addEventListener('ended', () => (ended = true))
    audio.addEventListener('playing', () => (ended = false))
    ;(window as unknown as { samples: Sample[] }).samples = samples
    setInterval(() => {
      samples.push({
        wall: performance.now() / 1000,
        src: audio.src,
        time: audio.currentTime,
        crossfade: audio.dataset.crossfade,
        ended,
      })
    }, 20)
  })
}

const samples = (page: Page) => page.evaluate(() => (window as unknown as { samples: Sample[] }).samples)

const update = (page: Page, patch: Record<string, unknown>) =>
  page.evaluate((p) => window.cadence.invoke('settings:update', p), patch)

describe('Playback speed and crossfade', () => {
  let app: App
  let songs: Song[]
  beforeAll(async () => {
    app = await startApp()
    songs = await findSongs(app, 12, playable)
    await app.page.getByTestId('now-playing').waitFor()
  })
  afterAll(() => app?.close())

  it('plays at 1.5× set while playing: the song clock runs about 1.5 times as fast as the wall clock', async () => {
    const { page } = app
    await playSongs(page, songs.slice(0, 1))
    await waitForClock(page, 0.5)
    await update(page, { speed: 1.5 })
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement).playbackRate === 1.5,
    )
    // Past the switch (heard 0.2 s after it is asked), then 2 s of wall time measured in the page.
    await page.waitForTimeout(500)
    const rate = await page.evaluate(async () => {
      const audio = document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement
      const [time, wall] = [audio.currentTime, performance.now()]
      await new Promise((resolve) => setTimeout(resolve, 2000))
      return (audio.currentTime - time) / ((performance.now() - wall) / 1000)
    })
    expect(rate).toBeGreaterThan(1.3)
    expect(rate).toBeLessThan(1.7)
    // The bar shows song time: at 1.5× for over 2.5 s, more than 3.5 s of the song went by.
    await expect
      .poll(() => page.getByTestId('player-position').innerText(), { timeout: 10_000 })
      .toMatch(/^0:0[4-9]$/)
    await update(page, { speed: 1 })
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement).playbackRate === 1,
    )
  })

  it('with a 2 s crossfade, starts the next song about 2 s before the one playing ends', async () => {
    const { page } = app
    const first = songs[0]
    const second = songs.find((song) => song.album?.id !== first.album?.id)!
    await update(page, { crossfadeSeconds: 2 })
    await playSongs(page, [first, second])
    await waitForClock(page, 0.3)
    const duration = await page.evaluate(
      () => (document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement).duration,
    )
    await startRecording(page)
    await seekWithSlider(page, (duration - 5) * 1000)
    await page
      .getByTestId('player-title')
      .getByText(second.name, { exact: true })
      .waitFor({ timeout: 15_000 })
    await page.waitForTimeout(3000)
    await expect.poll(() => title(page), { timeout: 10_000 }).toBe(second.name)
    const recorded = await samples(page)
    await update(page, { crossfadeSeconds: 0 })

    const srcOfFirst = recorded[0].src
    // The first song's last clock reading before it said `ended`, and the second's first reading.
    const before = recorded.filter((s) => s.src === srcOfFirst && !s.ended && s.time > duration - 5.5).at(-1)!
    const after = recorded.find((s) => s.src !== srcOfFirst && !s.ended)!
    expect(before).toBeDefined()
    expect(after).toBeDefined()
    // On the wall clock: where the first song would end, and where the second began.
    const firstEnds = before.wall + (duration - before.time)
    const secondBegan = after.wall - after.time
    expect(firstEnds - secondBegan).toBeGreaterThan(1.5)
    expect(firstEnds - secondBegan).toBeLessThan(2.6)
    // Both heard meanwhile: the output says so while the first plays out, then stops saying it.
    const overlap = recorded.filter((s) => s.crossfade === '2')
    expect(overlap.length).toBeGreaterThan(0)
    expect(overlap.at(-1)!.time).toBeGreaterThan(1.5)
    expect(overlap.at(-1)!.time).toBeLessThan(2.8)
    expect(recorded.at(-1)!.crossfade).toBeUndefined()
  })
})
