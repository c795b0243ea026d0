import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { artistNames } from '@shared/api/artist-names'
import { startApp } from './harness'
import type { App } from './harness'
import { findSongs, playSongs, playable } from './playback-support'
import { lrclibRecord, startFakeLrclib } from '../support/fake-lrclib'
import type { FakeLrclib, LrclibRecord } from '../support/fake-lrclib'

/**
 * Lyrics from LRCLIB in the real renderer, against the real core and a fake LRCLIB: the one-time offer
 * for a song without lyrics, "Lyrics from LRCLIB" with its synced lines, "Pick another", "Hide", and
 * "No thanks" remembered.
 */

const texts = (app: App) => app.page.getByTestId('lyrics-line').allInnerTexts()

describe('Lyrics from LRCLIB on the now-playing screen', () => {
  let app: App
  let lrclib: FakeLrclib
  const records: LrclibRecord[] = []
  beforeAll(async () => {
    lrclib = await startFakeLrclib(records)
    app = await startApp({ lrclib: { baseUrl: lrclib.url } })
    await app.page.getByTestId('now-playing').waitFor()
  })
  afterAll(async () => {
    await app?.close()
    await lrclib?.close()
  })

  it('offers LRCLIB once for a song without lyrics; turned on, shows them marked, picks another, hides them', async () => {
    const { page } = app
    const [song] = await findSongs(
      app,
      1,
      (s) => playable(s) && !s.meta?.lyric?.normal && !s.meta?.lyric?.wordforword,
    )
    const base = {
      trackName: song.name,
      artistName: artistNames(song),
      albumName: song.album?.name ?? '',
      duration: Math.round((song.duration ?? 0) / 1000),
    }
    records.push(
      lrclibRecord({ id: 11, ...base, syncedLyrics: '[00:00.50] Found on LRCLIB\n[00:30.00] Second line' }),
      lrclibRecord({ id: 12, ...base, albumName: 'Live', syncedLyrics: '[00:00.50] The live version' }),
    )
    await playSongs(page, [song])
    await page.getByTestId('player-open-now-playing').click()
    await page.getByTestId('now-playing-screen').waitFor()

    // Off by default: nothing asked, the offer shown once.
    const offer = page.getByTestId('lrclib-offer')
    await offer.waitFor({ timeout: 20_000 })
    expect(await offer.innerText()).toContain('Look up lyrics on LRCLIB?')
    expect(lrclib.requests).toHaveLength(0)
    await page.getByTestId('lrclib-turn-on').click()

    await expect.poll(() => texts(app), { timeout: 20_000 }).toEqual(['Found on LRCLIB', 'Second line'])
    expect(await page.getByTestId('lrclib-marking').innerText()).toContain('Lyrics from LRCLIB')
    expect(await offer.count()).toBe(0)
    expect(app.core.settings.get().lrclib).toBe('on')
    expect(lrclib.requests[0]).toMatchObject({
      path: '/api/get',
      query: { track_name: base.trackName, artist_name: base.artistName, duration: String(base.duration) },
    })
    expect(lrclib.requests[0]!.headers['user-agent']).toBe('Cadence/0.0.0-test (desktop music player)')

    // Pick another: the search results, then the one chosen shows.
    await page.getByTestId('lrclib-pick').click()
    await page.getByTestId('lrclib-results').waitFor({ timeout: 20_000 })
    await expect
      .poll(() => page.locator('[data-testid^="lrclib-result-"]').count(), { timeout: 20_000 })
      .toBe(2)
    await page.getByTestId('lrclib-result-12').click()
    await expect.poll(() => texts(app), { timeout: 20_000 }).toEqual(['The live version'])

    // Hide them for this song: the lines go, a way to show them again stays.
    await page.getByTestId('lrclib-hide').click()
    await expect.poll(() => page.getByTestId('lyrics-line').count(), { timeout: 20_000 }).toBe(0)
    await expect
      .poll(() => page.getByTestId('lrclib-marking').innerText(), { timeout: 20_000 })
      .toContain('hidden for this song')
    await page.getByTestId('lrclib-show').click()
    await expect.poll(() => texts(app), { timeout: 20_000 }).toEqual(['The live version'])
  })
})

describe('The LRCLIB offer declined', () => {
  let app: App
  let lrclib: FakeLrclib
  beforeAll(async () => {
    lrclib = await startFakeLrclib([])
    app = await startApp({ lrclib: { baseUrl: lrclib.url } })
    await app.page.getByTestId('now-playing').waitFor()
  })
  afterAll(async () => {
    await app?.close()
    await lrclib?.close()
  })

  it('"No thanks" is remembered: the setting is off, the offer does not come back, nothing is asked', async () => {
    const { page } = app
    const songs = await findSongs(
      app,
      2,
      (s) => playable(s) && !s.meta?.lyric?.normal && !s.meta?.lyric?.wordforword,
    )
    await playSongs(page, songs)
    await page.getByTestId('player-open-now-playing').click()
    await page.getByTestId('lrclib-offer').waitFor({ timeout: 20_000 })
    await page.getByTestId('lrclib-no-thanks').click()
    await expect.poll(() => app.core.settings.get().lrclib, { timeout: 20_000 }).toBe('off')
    await expect.poll(() => page.getByTestId('lrclib-offer').count(), { timeout: 20_000 }).toBe(0)
    // The next song without lyrics: the message, no offer.
    await page.getByTestId('now-playing-screen').getByTestId('player-next').click()
    await expect
      .poll(() => page.getByTestId('now-playing-title').innerText(), { timeout: 20_000 })
      .toBe(songs[1]!.name)
    await expect
      .poll(() => page.getByTestId('lyrics-message').innerText(), { timeout: 20_000 })
      .toBe('This song has no lyrics.')
    expect(await page.getByTestId('lrclib-offer').count()).toBe(0)
    expect(lrclib.requests).toHaveLength(0)
  })
})
