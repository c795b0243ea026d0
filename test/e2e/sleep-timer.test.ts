import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { Song } from '@shared/api/models'
import { buildTrayMenu } from '@main/core/tray/menu'
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
 * The sleep timer (issue 37) in Chromium's real Web Audio, set and cancelled from the player bar: the
 * fade is read from the output's volume gain on the audio clock (`volumeLevel` on the hidden element),
 * sampled in the page beside the song's clock; the player ends paused, never closed.
 */

type Sample = { time: number; level: number; paused: boolean; src: string }

/** Samples the song clock and the volume gain every 50 ms in the page. */
function startRecording(page: Page): Promise<void> {
  return page.evaluate(() => {
    const audio = document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement & {
      volumeLevel: number
    }
    const samples: Sample[] = []
    ;(window as unknown as { samples: Sample[] }).samples = samples
    setInterval(() => {
      samples.push({
        time: audio.currentTime,
        level: audio.volumeLevel,
        paused: audio.paused,
        src: audio.src,
      })
    }, 50)
  })
}
const samples = (page: Page) => page.evaluate(() => (window as unknown as { samples: Sample[] }).samples)
const level = (page: Page) =>
  page.getByTestId('player-audio').evaluate((el) => (el as unknown as { volumeLevel: number }).volumeLevel)
const duration = (page: Page) =>
  page.getByTestId('player-audio').evaluate((el) => (el as HTMLAudioElement).duration)

/** Clicks the repeat button until it says `label` (off → all → this song). */
async function setRepeat(page: Page, label: 'Repeat: off' | 'Repeat: this song') {
  const button = page.getByTestId('player-repeat')
  for (let i = 0; i < 3 && (await button.getAttribute('aria-label')) !== label; i++) await button.click()
  await expect.poll(() => button.getAttribute('aria-label')).toBe(label)
}

describe('Sleep timer', () => {
  let app: App
  let songs: Song[]
  beforeAll(async () => {
    app = await startApp()
    songs = await findSongs(app, 2, playable)
    await app.page.getByTestId('now-playing').waitFor()
    await app.page.evaluate(() => window.cadence.invoke('settings:update', { sleepFadeSeconds: 4 }))
  })
  afterAll(() => app?.close())

  it('at the end of this song under repeat-one: fades its last seconds on the audio clock, then pauses', async () => {
    const { page } = app
    await playSongs(page, songs.slice(0, 2))
    await waitForClock(page, 0.3)
    await setRepeat(page, 'Repeat: this song')
    await page.getByTestId('player-sleep').click()
    await page.getByTestId('player-sleep-menu').getByRole('menuitem', { name: 'End of this song' }).click()
    await expect.poll(() => page.getByTestId('player-sleep-left').innerText()).toMatch(/Sleep in \d+:\d\d/)
    // The tray is told, and offers the cancel.
    await expect
      .poll(() => app.core.playerState()?.sleep, { timeout: 10_000 })
      .toMatchObject({ kind: 'song' })
    const tray = buildTrayMenu(app.core.playerState(), { windowVisible: true })
    expect(tray.find((item) => item.type === 'normal' && item.id === 'sleep-timer')).toMatchObject({
      action: { command: 'cancel-sleep' },
    })

    const seconds = await duration(page)
    await startRecording(page)
    await seekWithSlider(page, (seconds - 8) * 1000)
    // The player ends paused, at the start of the same song (repeat-one still ends), the timer gone.
    await expect.poll(() => audioState(page), { timeout: 30_000 }).toMatchObject({ paused: true })
    await expect.poll(() => page.getByTestId('player-sleep').count()).toBe(1)
    expect(await title(page)).toBe(songs[0].name)
    expect((await audioState(page)).time).toBeLessThan(1)

    const heard = (await samples(page)).filter((s) => !s.paused && s.time > seconds - 7.5)
    const at = (from: number, to: number) => heard.filter((s) => s.time >= from && s.time < to)
    // Before the fade: full volume; in its second half: well under half; each reading no louder than
    // the one before it (the gain follows one ramp down).
    expect(at(seconds - 7, seconds - 4.5).every((s) => s.level > 0.95)).toBe(true)
    expect(at(seconds - 7, seconds - 4.5).length).toBeGreaterThan(0)
    const late = at(seconds - 1.5, seconds)
    expect(late.length).toBeGreaterThan(0)
    expect(late.every((s) => s.level < 0.5)).toBe(true)
    const fading = at(seconds - 4, seconds)
    expect(fading.every((s, i) => i === 0 || s.level <= fading[i - 1].level + 0.01)).toBe(true)
    // Main no longer shows a timer; the next Play is at full volume again.
    await expect.poll(() => app.core.playerState()?.sleep, { timeout: 10_000 }).toBeUndefined()
    await page.getByTestId('player-toggle').click()
    await waitForClock(page, 0.5)
    await expect.poll(() => level(page)).toBeGreaterThan(0.95)
    await page.getByTestId('player-toggle').click()
    await setRepeat(page, 'Repeat: off')
  })

  it('one click cancels, also from the tray: a fade under way is undone and the music plays on', async () => {
    const { page } = app
    await playSongs(page, songs.slice(0, 1))
    await waitForClock(page, 0.3)
    const seconds = await duration(page)
    await page.getByTestId('player-sleep').click()
    await page.getByTestId('player-sleep-menu').getByRole('menuitem', { name: 'End of this song' }).click()
    await seekWithSlider(page, (seconds - 12) * 1000)
    // Inside the fade: the level falls.
    await expect.poll(() => level(page), { timeout: 20_000 }).toBeLessThan(0.8)
    await page.getByTestId('player-sleep-cancel').click()
    await expect.poll(() => level(page)).toBeGreaterThan(0.95)
    expect((await audioState(page)).paused).toBe(false)

    // Set again, and cancelled by the tray's command.
    await page.getByTestId('player-sleep').click()
    await page.getByTestId('player-sleep-menu').getByRole('menuitem', { name: '30 min' }).click()
    await expect
      .poll(() => page.getByTestId('player-sleep-left').innerText())
      .toMatch(/Sleep in (29:5\d|30:00)/)
    await expect
      .poll(() => app.core.playerState()?.sleep, { timeout: 10_000 })
      .toEqual({ kind: 'minutes', leftMinutes: 30 })
    app.core.events.emit('player:command', { command: 'cancel-sleep' })
    await expect.poll(() => page.getByTestId('player-sleep').count()).toBe(1)
    expect(await page.getByTestId('player-sleep-cancel').count()).toBe(0)
  })
})
