import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from './harness'
import type { App } from './harness'
import { findSongs, playSongs, playable } from './playback-support'
import { startFakeListenBrainz } from '../support/fake-listenbrainz'
import type { FakeListenBrainz } from '../support/fake-listenbrainz'

/**
 * Settings → Connections through the real UI, main and a ListenBrainz fake on loopback: a token entered
 * is checked by main and shown only as "Connected as …"; a song that starts is reported as playing now.
 */
const TOKEN = '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0'

describe('Settings → Connections', () => {
  let app: App
  let fake: FakeListenBrainz
  beforeAll(async () => {
    fake = await startFakeListenBrainz({ tokens: { [TOKEN]: 'rob' } })
    app = await startApp()
  })
  afterAll(async () => {
    await app?.close()
    await fake?.close()
  })

  it(
    'connects ListenBrainz with a token (a wrong one refused), then reports the song that starts',
    { timeout: 150_000 },
    async () => {
      const { page } = app
      await page.getByTestId('nav-settings').click()
      const status = page.getByTestId('listenbrainz-status')
      await expect.poll(() => status.innerText(), { timeout: 20_000 }).toContain('Off.')
      await expect
        .poll(() => page.getByTestId('lastfm-status').innerText())
        .toBe('Not available in this build (it has no Last.fm API key).')

      await page.getByTestId('listenbrainz-server').fill(fake.url)
      await page.getByTestId('listenbrainz-token').fill('not-a-token')
      await page.getByTestId('listenbrainz-connect').click()
      await expect
        .poll(() => status.innerText(), { timeout: 20_000 })
        .toBe('The server did not accept this token.')

      await page.getByTestId('listenbrainz-token').fill(TOKEN)
      await page.getByTestId('listenbrainz-connect').click()
      await expect.poll(() => status.innerText(), { timeout: 20_000 }).toBe('Connected as rob.')
      // The token never reaches the page.
      expect(await page.content()).not.toContain(TOKEN)

      const [song] = await findSongs(app, 1, playable)
      await playSongs(page, [song])
      await expect
        .poll(() => fake.playingNow.map((p) => p.track_metadata.track_name), { timeout: 30_000 })
        .toContain(song.name)
      const reported = fake.playingNow.find((p) => p.track_metadata.track_name === song.name)!
      expect(reported.track_metadata.artist_name).toBe(song.artists.map((a) => a.name).join(', '))
      await page.getByTestId('player-toggle').click()

      await page.getByTestId('nav-settings').click()
      await page.getByTestId('listenbrainz-disconnect').click()
      await expect.poll(() => status.innerText(), { timeout: 20_000 }).toContain('Off.')
    },
  )
})
