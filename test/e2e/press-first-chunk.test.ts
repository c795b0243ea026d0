import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from './harness'
import type { App } from './harness'
import { audioState } from './playback-support'
import {
  countPress,
  PRESSED_CHAIN,
  pressChain,
  pressCounts as counts,
  pressedSong as pressed,
  openFirstPlaylist,
} from '../support/press-counts'

/**
 * A click heard at once: a row's first press (the double-click's second press comes 100–300 ms later)
 * opens the song in the output and reads and decodes its first chunk, scheduling nothing; the play that
 * follows only schedules that chunk. Counted in the page (`support/press-counts.ts`; the built main
 * under the stand-in Electron gives the same, `test/electron/press-click.test.ts`). Loudness is off, so
 * the only media requests are the playback's own (the loudness measurement reads the file too).
 */

describe('A pressed row has its first chunk ready for the play', () => {
  let app: App
  beforeAll(async () => {
    app = await startApp()
    await app.page.evaluate(() => window.cadence.invoke('settings:update', { loudness: 'off' }))
    await openFirstPlaylist(app.page, 9)
    await countPress(app.page)
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
    // The press had the head; when the first chunk was scheduled no chunk was made since, nor a request.
    expect(pressChain(afterPress, played, url)).toMatchObject(PRESSED_CHAIN)
    // Its head was asked once (by the press), and the play read on after the first chunk.
    expect(app.mediaRequests.filter((r) => r.url === url && r.range === 'bytes=0-65535').length).toBe(1)
    await expect
      .poll(async () => (await counts(app.page)).buffers, { timeout: 15_000 })
      .toBeGreaterThan(afterPress.buffers)
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
