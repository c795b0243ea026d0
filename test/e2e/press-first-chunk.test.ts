import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startApp } from './harness'
import type { App } from './harness'
import { audioState } from './playback-support'

/**
 * A click heard at once: a row's first press (the double-click's second press comes 100–300 ms later)
 * opens the song in the output and reads and decodes its first chunk, scheduling nothing; the play that
 * follows only schedules that chunk. Counted in the page: chunks made (`createBuffer`, one per chunk the
 * output prepares), chunks scheduled (`AudioBufferSourceNode.start`) and media fetches per address, each
 * start with the counts as they were when it was scheduled. Loudness is off, so the only media requests
 * are the playback's own (the loudness measurement reads the file too).
 */

interface Counts {
  buffers: number
  starts: Array<{ buffers: number; fetches: Record<string, number> }>
  fetches: Record<string, number>
}

/** Counts the page's chunks made and scheduled and its fetches (the output reads `fetch` at each call). */
function instrument(page: Page) {
  return page.evaluate(() => {
    const counts = { buffers: 0, starts: [], fetches: {} } as unknown as Counts
    ;(window as unknown as { __pressCounts: Counts }).__pressCounts = counts
    const createBuffer = BaseAudioContext.prototype.createBuffer
    BaseAudioContext.prototype.createBuffer = function (...args) {
      counts.buffers++
      return createBuffer.apply(this, args)
    }
    const start = AudioBufferSourceNode.prototype.start
    AudioBufferSourceNode.prototype.start = function (...args) {
      counts.starts.push({ buffers: counts.buffers, fetches: { ...counts.fetches } })
      return start.apply(this, args)
    }
    const realFetch = window.fetch
    window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
      counts.fetches[url] = (counts.fetches[url] ?? 0) + 1
      return realFetch.call(this, input, init)
    }
  })
}

const counts = (page: Page) =>
  page.evaluate(() => structuredClone((window as unknown as { __pressCounts: Counts }).__pressCounts))
/** The song the output keeps for a play (`data-pressed` on the hidden element), or undefined. */
const pressed = (page: Page) =>
  page.getByTestId('player-audio').evaluate((el) => (el as HTMLElement).dataset.pressed)

describe('A pressed row has its first chunk ready for the play', () => {
  let app: App
  beforeAll(async () => {
    app = await startApp()
    await app.page.evaluate(() => window.cadence.invoke('settings:update', { loudness: 'off' }))
    await app.page.getByTestId('nav-home').click()
    await app.page.getByTestId('home-playlists').getByTestId('playlist-card').first().click()
    await app.page.getByTestId('song-row').nth(9).waitFor({ timeout: 30_000 })
    await instrument(app.page)
  }, 120_000)
  afterAll(() => app?.close())

  const row = (index: number) => app.page.getByTestId('song-row').nth(index).getByTestId('song-name')
  /** A press alone (no focus, no click). */
  const pointerDown = (index: number) =>
    row(index).dispatchEvent('pointerdown', { button: 0, isPrimary: true })

  it('the press decodes the first chunk; the play schedules it with no new fetch or chunk', async () => {
    const before = await counts(app.page)
    const name = await row(4).innerText()
    await pointerDown(4)
    await expect.poll(() => pressed(app.page), { timeout: 15_000 }).toBeTruthy()
    const url = (await pressed(app.page))!
    // One chunk made, nothing scheduled, nothing playing.
    await expect
      .poll(async () => (await counts(app.page)).buffers, { timeout: 15_000 })
      .toBe(before.buffers + 1)
    const afterPress = await counts(app.page)
    expect(afterPress.starts.length).toBe(before.starts.length)
    expect((await audioState(app.page)).paused).toBe(true)

    await row(4).dblclick()
    await app.page.getByTestId('player-title').getByText(name, { exact: true }).waitFor()
    await expect.poll(async () => (await audioState(app.page)).time, { timeout: 30_000 }).toBeGreaterThan(0.5)
    const played = await counts(app.page)
    const first = played.starts[afterPress.starts.length]
    expect(first).toBeDefined()
    // When the first chunk was scheduled: no chunk made since the press, no request for the song since.
    expect(first.buffers).toBe(afterPress.buffers)
    expect(first.fetches[url] ?? 0).toBe(afterPress.fetches[url] ?? 0)
    // Its head was asked once (by the press), and the play read on after the first chunk.
    expect(app.mediaRequests.filter((r) => r.url === url && r.range === 'bytes=0-65535').length).toBe(1)
    expect(played.buffers).toBeGreaterThan(afterPress.buffers)
    expect(await pressed(app.page)).toBeUndefined()
  }, 90_000)

  it('a press while a song plays leaves that song playing', async () => {
    const playing = await audioState(app.page)
    expect(playing.paused).toBe(false)
    await pointerDown(6)
    await expect.poll(() => pressed(app.page), { timeout: 15_000 }).toBeTruthy()
    expect(await pressed(app.page)).not.toBe(playing.src)
    await expect
      .poll(async () => (await audioState(app.page)).time, { timeout: 30_000 })
      .toBeGreaterThan(playing.time + 1)
    const now = await audioState(app.page)
    expect(now.paused).toBe(false)
    expect(now.src).toBe(playing.src)
    await app.page.getByTestId('player-toggle').click()
    await expect.poll(async () => (await audioState(app.page)).paused, { timeout: 15_000 }).toBe(true)
  }, 90_000)

  it('a pressed song with no play: the next press lets it go, the last is let go later; none is heard', async () => {
    const stopped = await audioState(app.page)
    const before = await counts(app.page)
    await pointerDown(7)
    await expect.poll(() => pressed(app.page), { timeout: 15_000 }).toBeTruthy()
    const seventh = (await pressed(app.page))!
    await pointerDown(8)
    await expect.poll(() => pressed(app.page), { timeout: 15_000 }).not.toBe(seventh)
    const eighth = (await pressed(app.page))!
    expect(eighth).toBeTruthy()
    await expect
      .poll(async () => (await counts(app.page)).buffers, { timeout: 15_000 })
      .toBeGreaterThan(before.buffers)
    const primed = await counts(app.page)
    // Kept 10 s for a play, then let go.
    await expect.poll(() => pressed(app.page), { timeout: 40_000 }).toBeUndefined()
    const after = await counts(app.page)
    // Nothing of either was scheduled (nothing heard), and nothing more of them was asked for.
    expect(after.starts.length).toBe(before.starts.length)
    expect(after.fetches[seventh] ?? 0).toBe(primed.fetches[seventh] ?? 0)
    expect(after.fetches[eighth] ?? 0).toBe(primed.fetches[eighth] ?? 0)
    const now = await audioState(app.page)
    expect(now.paused).toBe(true)
    expect(now.src).toBe(stopped.src)
  }, 90_000)
})
