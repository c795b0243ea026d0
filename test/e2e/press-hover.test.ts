import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from './harness'
import type { App } from './harness'
import { audioState } from './playback-support'
import {
  countPress,
  pressCounts,
  pressedSong,
  countingResolves,
  openFirstPlaylist,
} from '../support/press-counts'

/**
 * A click heard at once: the pointer resting on a song row (before a person's double-click) starts the
 * song's resolve, its head's fetch and its first chunk (`song-list-press.ts`, `HOVER_SETTLE_MS`), so the
 * double-click's play asks main and the data source for nothing more before its first chunk is
 * scheduled. Loudness is off, so the only media requests
 * are the playback's own.
 */

const HEAD = 'bytes=0-65535'

describe('A row the pointer rests on prepares its play', () => {
  let app: App
  /** The data source's `/song/detail` requests that resolve a song to play (with a bitrate), by song id. */
  const resolves: string[] = []
  beforeAll(async () => {
    app = await startApp({ fetch: countingResolves(resolves) })
    await app.page.evaluate(() => window.cadence.invoke('settings:update', { loudness: 'off' }))
    await openFirstPlaylist(app.page, 8)
    // The pointer away from the list, so no row is under it before a test moves it.
    await app.page.mouse.move(1, 1)
    await countPress(app.page)
  }, 120_000)
  afterAll(() => app?.close())

  const heads = () => app.mediaRequests.filter((r) => r.range === HEAD).length
  const name = (index: number) => app.page.getByTestId('song-row').nth(index).getByTestId('song-name')
  async function pointAt(index: number) {
    const box = (await name(index).boundingBox())!
    const at = { x: box.x + Math.min(20, box.width / 2), y: box.y + box.height / 2 }
    await app.page.mouse.move(at.x, at.y)
    return at
  }

  it('a pointer resting on a row: its resolve, head and first chunk before any press; the double-click asks nothing more', async () => {
    const resolvedBefore = resolves.length
    const headsBefore = heads()
    const before = await pressCounts(app.page)
    const title = await name(3).innerText()
    const at = await pointAt(3)
    // No press yet: the rest alone prepares the row's song.
    await expect.poll(() => resolves.length, { timeout: 15_000 }).toBe(resolvedBefore + 1)
    await expect.poll(() => heads(), { timeout: 15_000 }).toBe(headsBefore + 1)
    await expect.poll(() => pressedSong(app.page), { timeout: 15_000 }).toBeTruthy()
    const url = (await pressedSong(app.page))!
    const id = resolves.at(-1)!
    await expect
      .poll(async () => (await pressCounts(app.page)).buffers, { timeout: 15_000 })
      .toBe(before.buffers + 1)
    const hovered = await pressCounts(app.page)
    expect(hovered.starts.length).toBe(before.starts.length)
    expect((await audioState(app.page)).paused).toBe(true)

    await app.page.mouse.dblclick(at.x, at.y)
    await app.page.getByTestId('player-title').getByText(title, { exact: true }).waitFor()
    await expect.poll(async () => (await audioState(app.page)).time, { timeout: 30_000 }).toBeGreaterThan(0.5)
    const played = await pressCounts(app.page)
    const first = played.starts[hovered.starts.length]!
    // When the first chunk was scheduled no chunk had been made since the rest, nor a fetch of the song.
    expect(first.buffers - hovered.buffers).toBe(0)
    expect((first.fetches[url] ?? 0) - (hovered.fetches[url] ?? 0)).toBe(0)
    // One resolve and one head of the song for the whole: the presses asked for neither again (the
    // following song's resolve is the play's own).
    expect(resolves.filter((r) => r === id).length).toBe(1)
    expect(app.mediaRequests.filter((r) => r.url === url && r.range === HEAD).length).toBe(1)
    await app.page.getByTestId('player-toggle').click()
    await expect.poll(async () => (await audioState(app.page)).paused, { timeout: 15_000 }).toBe(true)
  }, 90_000)
})
