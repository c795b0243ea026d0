import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { parseMediaUrl } from '@shared/player/media-url'
import { startApp } from './harness'
import type { App } from './harness'
import { audioState, findSongs, playSongs, playable, seekWithSlider, waitForClock } from './playback-support'

const ROOT = join(import.meta.dirname, '../..')

/**
 * The renderer loads media only from main's scheme: its CSP allows nothing else, and playing, seeking
 * and moving on make no http(s) media request from the page.
 */
describe('media through main', () => {
  let app: App
  let songs: Song[]
  /** Every request the page sent over the network (http(s)), but images (covers come from the source). */
  const pageRequests: string[] = []
  beforeAll(async () => {
    app = await startApp()
    songs = await findSongs(app, 2, playable)
    app.page.on('request', (request) => {
      if (/^https?:/.test(request.url()) && request.resourceType() !== 'image')
        pageRequests.push(request.url())
    })
    await app.page.getByTestId('now-playing').waitFor()
  })
  afterAll(() => app?.close())

  it('ships a CSP whose media-src names only the media scheme, and images only the same sources plus it', async () => {
    const html = await readFile(join(ROOT, 'out/renderer/index.html'), 'utf8')
    const csp = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? ''
    const directive = (name: string) =>
      csp
        .split(';')
        .map((part) => part.trim())
        .find((part) => part.startsWith(`${name} `))
    expect(directive('media-src')).toBe('media-src cadence-media:')
    // Covers kept on disk (issue 23) come from the scheme's cover route; nothing else was added.
    expect(directive('img-src')).toBe("img-src 'self' data: blob: http: https: cadence-media:")
  })

  it('resolves songs to the media scheme: the signed URL stays in main', () => {
    for (const song of songs) {
      const ref = parseMediaUrl(song.meta?.url ?? '')
      expect(ref).toMatchObject({ songId: String(song.id) })
    }
  })

  it('refuses, in the page, media from the data source’s own signed URL', async () => {
    const signed = (await app.core.api().songDetail(songs[0].id, undefined, 320000)).meta?.url
    expect(signed).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\//)
    const outcome = await app.page.evaluate(
      (url) =>
        new Promise<string>((done) => {
          document.addEventListener('securitypolicyviolation', (event) => done(event.violatedDirective), {
            once: true,
          })
          const audio = new Audio()
          audio.addEventListener('loadedmetadata', () => done('loaded'))
          audio.src = url
        }),
      signed!,
    )
    expect(outcome).toBe('media-src')
  })

  it('plays, seeks and moves on with every media request on the scheme, answered 200/206', async () => {
    const { page } = app
    app.mediaRequests.length = 0
    pageRequests.length = 0
    await playSongs(page, songs)
    await waitForClock(page, 0.5)
    await seekWithSlider(page, 20_000)
    await waitForClock(page, 20.2)
    await page.getByTestId('player-next').click()
    await page.getByTestId('player-title').getByText(songs[1].name, { exact: true }).waitFor()
    await waitForClock(page, 0.3)
    expect((await audioState(page)).src).toMatch(/^cadence-media:\/\/song\//)

    // The songs' requests (the tint reads the cover's pixels on the same scheme, `cadence-media://cover/`).
    const media = app.mediaRequests.filter((request) => request.url.startsWith('cadence-media://song/'))
    expect(media.length).toBeGreaterThan(0)
    const played = new Set(media.map((request) => parseMediaUrl(request.url)?.songId))
    expect(played).toEqual(new Set(songs.map((song) => String(song.id))))
    // Ranges, answered as ranges.
    expect(media.some((request) => request.range?.startsWith('bytes='))).toBe(true)
    expect(media.filter((request) => request.status !== 200 && request.status !== 206)).toEqual([])
    // The page itself asked nothing of the data source (media, fetch or XHR): only its own files.
    // (Covers are images the CSP allows from the source; the now-playing tint reads them through main.)
    const covers = new Set(songs.map((song) => song.album?.cover))
    expect(pageRequests.filter((url) => !url.startsWith(app.appUrl + '/') && !covers.has(url))).toEqual([])
  })
})
