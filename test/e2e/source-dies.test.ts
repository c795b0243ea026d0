import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { DEMO_FORMATS } from '@server/audio/formats'
import { startApp } from './harness'
import type { App } from './harness'
import { audioState, findSongs, playable, playSongs, title } from './playback-support'
import type { ThrottleProxy } from '../support/throttle-proxy'
import { addSlowSource } from './slow-source'
import type { SlowSource } from './slow-source'

/**
 * Issue 34 item 1 in the real renderer: a song of an added data source streams over a slow link (twice
 * as fast as it plays) and the source stops 1.5 s into the song. The song plays on, on the audio clock,
 * as far as the bytes that reached the player go; then the player stops on that song and says why, once,
 * and tries no other song of the queue. Play then stops again with one notice, on the same song.
 */

const LINK_BYTES_PER_SECOND = 80_000

/** The song seconds in the first `bytes` of one of the demo source's WAV files at `bitrate`. */
const wavSeconds = (bytes: number, bitrate: number) => {
  const format = DEMO_FORMATS[bitrate]
  return (bytes - 44) / (format.rate * format.channels * 2)
}

describe('a data source that stops while a song plays', () => {
  let app: App
  let source: SlowSource
  let proxy: ThrottleProxy
  let songs: Song[]
  beforeAll(async () => {
    app = await startApp({ demo: 40 })
    // The second source, reached through the slow link.
    source = await addSlowSource(app, LINK_BYTES_PER_SECOND)
    proxy = source.proxy
    // Only the playback reads the song: the loudness measurement reads the file too, from its start and
    // on (main answers a range with the part of the song it has kept so far, and the measurement asks on
    // from there), so the bytes it was served would pass for the playback's.
    await app.page.evaluate(() => window.cadence.invoke('settings:update', { loudness: 'off' }))
    songs = await findSongs(app, 3, (song) => playable(song) && (song.duration ?? 0) >= 20_000)
  })
  afterAll(async () => {
    await app?.close()
    await source?.close()
  })

  it('plays on as far as the bytes came, then stops on the song with one notice', async () => {
    const { page } = app
    const [song] = songs
    await playSongs(page, songs)
    await page.getByTestId('player-title').getByText(song.name, { exact: true }).waitFor()
    // The bar's total is the song's, as its list gives it.
    const minutes = Math.floor(song.duration! / 60_000)
    const seconds = String(Math.floor(song.duration! / 1000) % 60).padStart(2, '0')
    await expect.poll(() => page.getByTestId('player-duration').innerText()).toBe(`${minutes}:${seconds}`)
    await expect.poll(async () => (await audioState(page)).time, { timeout: 30_000 }).toBeGreaterThan(1.5)
    await proxy.stop()
    const stoppedAt = (await audioState(page)).time

    // The song plays on past that point, then stops by itself where its bytes end (the clock is read
    // until then: the player lets go of the song's audio once it stopped).
    let reachedMax = stoppedAt
    await expect
      .poll(
        async () => {
          const state = await audioState(page)
          if (!state.paused) reachedMax = Math.max(reachedMax, state.time)
          return state.paused && reachedMax > stoppedAt + 0.5
        },
        { timeout: 60_000, interval: 50 },
      )
      .toBe(true)
    const notice = page.getByTestId('player-notice')
    await expect.poll(() => notice.count(), { timeout: 30_000 }).toBe(1)
    expect(await notice.innerText()).toContain('stopped answering')
    expect(await title(page)).toBe(song.name)

    // It reached the end of the bytes the page was served of it from the start on.
    const spans = app.mediaRequests
      .filter((r) => r.url.includes(`/${song.id}?`) && r.status === 206)
      .map((r) => /bytes (\d+)-(\d+)\//.exec(r.contentRange ?? '')!)
      .map((m) => ({ start: Number(m[1]), end: Number(m[2]) }))
      .sort((a, b) => a.start - b.start)
    let servedTo = -1
    for (const span of spans) if (span.start <= servedTo + 1) servedTo = Math.max(servedTo, span.end)
    expect(servedTo).toBeLessThan(song.meta!.size! - 1)
    // Where it stopped, read on the clock up to 50 ms before its end.
    expect(reachedMax).toBeGreaterThan(wavSeconds(servedTo + 1, song.meta!.bitrate!) - 0.3)
    // No other song of the queue was tried.
    for (const other of songs.slice(1))
      expect(app.mediaRequests.filter((r) => r.url.includes(`/${other.id}?`))).toEqual([])

    // Play while the source is gone: one notice, still on that song, no race through the queue.
    await page.getByTestId('player-toggle').click()
    await expect.poll(() => notice.innerText(), { timeout: 30_000 }).toContain('not on this computer')
    expect(await notice.count()).toBe(1)
    expect(await title(page)).toBe(song.name)
    expect((await audioState(page)).paused).toBe(true)
    for (const other of songs.slice(1))
      expect(app.mediaRequests.filter((r) => r.url.includes(`/${other.id}?`))).toEqual([])
    await app.screenshot('source-dies-mid-song')
  })
})
