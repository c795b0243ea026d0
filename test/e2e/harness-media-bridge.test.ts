import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { startApp } from './harness'
import type { App } from './harness'
import { findSongs, playSongs, playable, waitForClock } from './playback-support'

/**
 * The harness carries the page's fetches on the media scheme as Electron does: through Chromium's network
 * stack to main's handler, the body streamed back, not as base64 text through a Playwright binding decoded
 * by a loop on the page's main thread (what cost most on that thread while a song played).
 */
describe('the harness’s media bridge', () => {
  let app: App
  let songs: Song[]
  /** Song requests Chromium's network stack carried to the harness, as `url range`. */
  const network: string[] = []
  beforeAll(async () => {
    app = await startApp()
    songs = await findSongs(app, 1, playable)
    app.page.on('requestfinished', (request) => {
      const at = request.url().indexOf('/__scheme/cadence-media/song/')
      if (at >= 0)
        network.push(
          `cadence-media://${request.url().slice(at + '/__scheme/cadence-media/'.length)} ${request.headers()['range'] ?? ''}`,
        )
    })
    await app.page.getByTestId('now-playing').waitFor()
  }, 120_000)
  afterAll(() => app?.close())

  it('carries every song range the player fetched through the network stack, each answered by main’s handler', async () => {
    app.mediaRequests.length = 0
    await playSongs(app.page, songs)
    await waitForClock(app.page, 1, 60_000)
    const served = app.mediaRequests
      .filter((request) => request.url.startsWith('cadence-media://song/'))
      .map((request) => `${request.url} ${request.range ?? ''}`)
    expect(served.length).toBeGreaterThan(0)
    await expect.poll(() => served.filter((one) => !network.includes(one)), { timeout: 30_000 }).toEqual([])
  })

  it('answers a page fetch on the scheme with main’s status, headers and bytes', async () => {
    const url = songs[0].meta!.url!
    const page = await app.page.evaluate(async (address) => {
      const answer = await fetch(address, { headers: { range: 'bytes=0-65535' } })
      const bytes = new Uint8Array(await answer.arrayBuffer())
      return {
        status: answer.status,
        range: answer.headers.get('content-range'),
        length: bytes.length,
        sum: bytes.reduce((n, b) => (n * 31 + b) >>> 0, 0),
      }
    }, url)
    const direct = await app.core.media(new Request(url, { headers: { range: 'bytes=0-65535' } }))
    const bytes = new Uint8Array(await direct.arrayBuffer())
    expect(page).toEqual({
      status: direct.status,
      range: direct.headers.get('content-range'),
      length: bytes.length,
      sum: bytes.reduce((n, b) => (n * 31 + b) >>> 0, 0),
    })
    expect(page.status).toBe(206)
  })
})
