import { mkdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Song } from '@shared/api/models'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import {
  audioState,
  findSongs,
  playSongs,
  playable,
  playRow,
  seekWithSlider,
  title,
  waitForClock,
} from './playback-support'

describe('Playback', () => {
  let app: App
  let songs: Song[]
  let locked: Song
  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    app = await startApp()
    songs = await findSongs(app, 4, playable)
    ;[locked] = await findSongs(app, 1, (song) => song.privilege?.playable === false)
    await app.page.getByTestId('now-playing').waitFor()
  })
  afterAll(() => app?.close())

  it('plays a playlist from a song row', async () => {
    const { page } = app
    await page.getByTestId('nav-home').click()
    await page.getByTestId('playlist-card').first().click()
    await page.getByTestId('playlist-name').waitFor()
    await playRow(page, page.locator('main [data-testid="song-row"]:not([aria-disabled])'), 1)
    await waitForClock(page, 0.5)
    await page.goBack()
  })

  it('plays a song: the audio clock advances and the bar shows it', async () => {
    const { page } = app
    await playSongs(page, songs)
    await waitForClock(page, 1)
    await expect.poll(() => title(page), { timeout: 10_000 }).toBe(songs[0].name)
    const before = (await audioState(page)).time
    await page.waitForTimeout(600)
    expect((await audioState(page)).time).toBeGreaterThan(before + 0.3)
    await expect
      .poll(() => page.getByTestId('player-position').innerText(), { timeout: 10_000 })
      .toMatch(/^0:0[1-9]$/)
    await app.screenshot('playback-now-playing-bar')
  })

  it('goes to the next song, seeks, restarts on previous after 3 s, and goes back before that', async () => {
    const { page } = app
    // Each test sets up what it plays (none relies on the one before).
    await playSongs(page, songs)
    await waitForClock(page, 0.3)
    await page.getByTestId('player-next').click()
    await page.getByTestId('player-title').getByText(songs[1].name, { exact: true }).waitFor()
    await waitForClock(page, 0.2)

    await seekWithSlider(page, 10_000)
    await waitForClock(page, 10)
    expect((await audioState(page)).time).toBeLessThan(13)

    await page.getByTestId('player-previous').click()
    await page.waitForFunction(() => {
      const audio = document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement
      return audio.currentTime < 2
    })
    await expect.poll(() => title(page), { timeout: 10_000 }).toBe(songs[1].name)

    await page.getByTestId('player-previous').click()
    await page.getByTestId('player-title').getByText(songs[0].name, { exact: true }).waitFor()
    await waitForClock(page, 0.2)
  })

  it('answers Space and the arrow keys outside text fields', async () => {
    const { page } = app
    await playSongs(page, songs)
    await waitForClock(page, 0.3)
    // Nothing focused: the keys belong to the app, not to a control.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await page.keyboard.press('Space')
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement).paused,
    )
    const at = (await audioState(page)).time
    await page.keyboard.press('ArrowRight')
    await page.waitForFunction(
      (t) => (document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement).currentTime > t + 4,
      at,
    )
    await page.keyboard.press('Space')
    await waitForClock(page, at + 5)
  })

  it('skips a song that cannot be played and shows why', async () => {
    const { page } = app
    await playSongs(page, [locked, songs[2]])
    await page.getByTestId('player-title').getByText(songs[2].name, { exact: true }).waitFor()
    const notice = await page.getByTestId('player-notice').innerText()
    expect(notice).toContain(locked.name)
    expect(notice).toContain(locked.privilege!.reason!)
    await waitForClock(page, 0.2)
    await app.screenshot('playback-skipped-notice')
  })

  it('obeys player:command from main: pause, then next', async () => {
    const { page } = app
    await playSongs(page, songs)
    await waitForClock(page, 0.3)
    app.core.events.emit('player:command', { command: 'pause' })
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement).paused,
    )
    await expect
      .poll(() => page.getByTestId('player-toggle').getAttribute('aria-label'), { timeout: 10_000 })
      .toBe('Play')
    app.core.events.emit('player:command', { command: 'next' })
    await page.getByTestId('player-title').getByText(songs[1].name, { exact: true }).waitFor()
    await waitForClock(page, 0.2)
    // The tray hears about it (player:report-state), when this core keeps the state.
    const core = app.core as unknown as { playerState?: () => unknown }
    if (core.playerState) {
      await expect
        .poll(() => core.playerState!())
        .toMatchObject({ playing: true, song: { name: songs[1].name } })
    }
  })

  it('shows the queue panel and plays from it', async () => {
    const { page } = app
    await playSongs(page, songs)
    await waitForClock(page, 0.2)
    await page.getByTestId('player-queue').click()
    const items = page.getByTestId('queue-item')
    await items.first().waitFor()
    await expect
      .poll(() => items.locator('.name').allInnerTexts(), { timeout: 10_000 })
      .toEqual(songs.map((s) => s.name))
    await app.screenshot('playback-queue')
    await items.nth(3).focus()
    await page.keyboard.press('Alt+ArrowUp')
    await expect
      .poll(() => items.locator('.name').allInnerTexts(), { timeout: 10_000 })
      .toEqual([0, 1, 3, 2].map((i) => songs[i].name))
    await items.nth(3).locator('.song').click()
    await page.getByTestId('player-title').getByText(songs[2].name, { exact: true }).waitFor()
    await page.getByTestId('player-queue').click()
  })

  it('restores the queue and position after a reload, paused', async () => {
    const { page } = app
    // A queue of its own: the third song playing, in an order the queue panel changed.
    await playSongs(
      page,
      [0, 1, 3, 2].map((i) => songs[i]),
      3,
    )
    await page.getByTestId('player-title').getByText(songs[2].name, { exact: true }).waitFor()
    await waitForClock(page, 0.2)
    await seekWithSlider(page, 12_000)
    await waitForClock(page, 12)
    await page.getByTestId('player-toggle').click()
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement).paused,
    )
    const saved = (await audioState(page)).time
    await page.waitForTimeout(500)

    await page.reload()
    await page.getByTestId('player-title').getByText(songs[2].name, { exact: true }).waitFor()
    await page.waitForFunction(
      (t) =>
        Math.abs(
          (document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement).currentTime - t,
        ) < 0.6,
      saved,
    )
    const state = await audioState(page)
    expect(state.paused).toBe(true)
    await expect
      .poll(() => page.getByTestId('player-position').innerText(), { timeout: 10_000 })
      .toBe(`0:${String(Math.floor(saved)).padStart(2, '0')}`)
    await page.getByTestId('player-queue').click()
    await expect
      .poll(() => page.getByTestId('queue-item').locator('.name').allInnerTexts(), { timeout: 10_000 })
      .toEqual([0, 1, 3, 2].map((i) => songs[i].name))
    await page.getByTestId('player-queue').click()
    await page.getByTestId('player-toggle').click()
    await waitForClock(page, saved + 0.3)
  })
})

describe('Playback with short-lived media URLs', () => {
  let app: App
  beforeAll(async () => {
    // Main's network is the global fetch, looked up at each call, so the test's spy sees the media requests.
    app = await startApp({
      server: { mediaUrlTtlSeconds: 2 },
      fetch: (input, init) => globalThis.fetch(input, init),
    })
    await app.page.getByTestId('now-playing').waitFor()
  })
  afterAll(() => app?.close())

  it('recovers an expired URL without skipping: main resolves it again, the page only sees its own scheme', async () => {
    const { page } = app
    const songs = await findSongs(app, 2, playable)
    // The page's media requests: every one on the media scheme, none to the data source.
    const pageMedia: string[] = []
    page.on(
      'request',
      (request) => void (request.resourceType() === 'media' && pageMedia.push(request.url())),
    )
    // Main's requests for the signed URLs, and the ones refused because their signature expired (403).
    const refused: string[] = []
    const realFetch = globalThis.fetch
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const answer = await realFetch(input, init)
      const url = String(input instanceof Request ? input.url : input)
      if (/\/media\/\d+\//.test(url) && answer.status === 403) refused.push(url)
      return answer
    })
    try {
      await playSongs(page, songs)
      await waitForClock(page, 1)
      await page.getByTestId('player-toggle').click()
      await page.waitForTimeout(2500)
      await seekWithSlider(page, 9000)
      await page.getByTestId('player-toggle').click()
      await waitForClock(page, 9.2)
      await expect.poll(() => title(page), { timeout: 10_000 }).toBe(songs[0].name)

      // The next song's URL was resolved ahead of time and has expired too: main resolves it again.
      await page.getByTestId('player-next').click()
      await page.getByTestId('player-title').getByText(songs[1].name, { exact: true }).waitFor()
      await waitForClock(page, 0.5)
      await expect.poll(() => page.getByTestId('player-notice').count(), { timeout: 10_000 }).toBe(0)
      expect(refused.some((url) => url.includes(`/media/${songs[1].id}/`))).toBe(true)
      expect(app.mediaRequests.some((request) => request.url.includes(`/${songs[1].id}?`))).toBe(true)
      expect(app.mediaRequests.filter((request) => request.status >= 400)).toEqual([])
      expect(pageMedia.filter((url) => !url.startsWith('cadence-media://song/'))).toEqual([])
    } finally {
      spy.mockRestore()
    }
  })
})
