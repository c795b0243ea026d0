import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from './harness'
import type { App } from './harness'
import { countingResolves, openFirstPlaylist } from '../support/press-counts'

/**
 * A click heard at once: the first press of a row (a double-click's second press comes 100–300 ms later)
 * or a row keeping the keyboard focus starts the song's resolve and its head's fetch; the play that
 * follows takes both (one `/song/detail` with a bitrate, one head range), and without a play nothing more
 * is fetched.
 */

const HEAD = 'bytes=0-65535'

describe('A row pressed or focused prepares its play', () => {
  let app: App
  /** The data source's `/song/detail` requests that resolve a song to play (with a bitrate), by song id. */
  const resolves: string[] = []
  beforeAll(async () => {
    // Main's network, looked up at each call, so the test sees what main asks of the data source.
    app = await startApp({ fetch: countingResolves(resolves) })
    await openFirstPlaylist(app.page, 8)
  }, 120_000)
  afterAll(() => app?.close())

  const heads = (url?: string) =>
    app.mediaRequests.filter((r) => r.range === HEAD && (url === undefined || r.url === url)).length
  const resolvesOf = (id: string) => resolves.filter((r) => r === id).length
  /** A press (down and up) on the row's title: a click, which selects the row and plays nothing. */
  async function press(index: number) {
    const box = (await app.page.getByTestId('song-row').nth(index).getByTestId('song-name').boundingBox())!
    await app.page.mouse.move(box.x + Math.min(20, box.width / 2), box.y + box.height / 2)
    await app.page.mouse.down()
    await app.page.mouse.up()
  }
  /** The one song a press resolved: its id and its head's address. */
  async function preparedAfter(resolvedBefore: number, headsBefore: number) {
    await expect.poll(() => resolves.length, { timeout: 15_000 }).toBe(resolvedBefore + 1)
    await expect.poll(() => heads(), { timeout: 15_000 }).toBe(headsBefore + 1)
    const id = resolves.at(-1)!
    const url = app.mediaRequests.filter((r) => r.range === HEAD).at(-1)!.url
    return { id, url }
  }

  it('a press with no play: one resolve and one head, then nothing more', async () => {
    const resolvedBefore = resolves.length
    const headsBefore = heads()
    const mediaBefore = app.mediaRequests.length
    // The press alone (a real mouse press also focuses the row, which prepares it too, 150 ms later).
    await app.page.getByTestId('song-row').nth(2).getByTestId('song-name').dispatchEvent('pointerdown', {
      button: 0,
      isPrimary: true,
    })
    const { id } = await preparedAfter(resolvedBefore, headsBefore)
    // Long enough for a play's reads to have begun had one started; none did.
    await app.page.waitForTimeout(3000)
    expect(resolvesOf(id)).toBe(1)
    expect(resolves.length).toBe(resolvedBefore + 1)
    expect(app.mediaRequests.length).toBe(mediaBefore + 1)
    expect(await app.page.getByTestId('player-audio').evaluate((el) => (el as HTMLAudioElement).paused)).toBe(
      true,
    )
  })

  it('a double-click: the play takes the resolve and the head of its first press', async () => {
    const resolvedBefore = resolves.length
    const headsBefore = heads()
    const name = await app.page.getByTestId('song-row').nth(4).getByTestId('song-name').innerText()
    await press(4)
    const { id, url } = await preparedAfter(resolvedBefore, headsBefore)
    await app.page.getByTestId('song-row').nth(4).getByTestId('song-name').dblclick()
    await app.page.getByTestId('player-title').getByText(name, { exact: true }).waitFor()
    await app.page.waitForFunction(
      () => (document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement).currentTime > 0.5,
      undefined,
      { timeout: 30_000 },
    )
    // Played: its chunks after the head were asked for, its head was not asked again, nor its resolve.
    await expect
      .poll(() => app.mediaRequests.filter((r) => r.url === url).length, { timeout: 30_000 })
      .toBeGreaterThan(1)
    expect(resolvesOf(id)).toBe(1)
    expect(heads(url)).toBe(1)
    await app.page.getByTestId('player-toggle').click()
  })

  it('a row keeping the keyboard focus, then Enter: one resolve, one head', async () => {
    await app.page.getByTestId('song-row').nth(5).focus()
    await app.page.waitForTimeout(500)
    const resolvedBefore = resolves.length
    const headsBefore = heads()
    const name = await app.page.getByTestId('song-row').nth(6).getByTestId('song-name').innerText()
    await app.page.keyboard.press('ArrowDown')
    const { id, url } = await preparedAfter(resolvedBefore, headsBefore)
    await app.page.keyboard.press('Enter')
    await app.page.getByTestId('player-title').getByText(name, { exact: true }).waitFor()
    await expect
      .poll(() => app.mediaRequests.filter((r) => r.url === url).length, { timeout: 30_000 })
      .toBeGreaterThan(1)
    expect(resolvesOf(id)).toBe(1)
    expect(heads(url)).toBe(1)
  })
})
