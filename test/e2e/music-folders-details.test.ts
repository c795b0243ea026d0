import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from './harness'
import type { App } from './harness'
import { addMusicFolder } from './sources-support'
import { embedCover, makePicture as picture, makeTrack } from '../support/library-files'

/**
 * What a chosen folder's songs show in the app, end to end: an MP3 with its cover embedded and its timed
 * lyrics in a sidecar `.lrc`, a FLAC with untimed lyrics in its tags, a folder `cover.png` for another
 * album; each played from its album page by a double-click, then seen on the now-playing screen.
 */
const root = mkdtempSync(join(tmpdir(), 'cadence-e2e-folder-details-'))
const music = join(root, 'My Music')
let app: App
const POLL = { timeout: 60_000, interval: 250 }

beforeAll(async () => {
  mkdirSync(join(music, 'Quay'), { recursive: true })
  mkdirSync(join(music, 'Harbour'), { recursive: true })
  const bare = join(root, 'bare.mp3')
  makeTrack(bare, { title: 'Rope Song', artist: 'Quay Singers', album: 'Quay Album', track: 1 }, 1, 4)
  picture(join(root, 'red.png'), 'red')
  embedCover(bare, join(root, 'red.png'), join(music, 'Quay', 'one.mp3'))
  writeFileSync(
    join(music, 'Quay', 'one.lrc'),
    '[00:00.10]Sidecar words on the quay\n[00:02.00]Second line\n',
  )
  makeTrack(
    join(music, 'Harbour', 'two.flac'),
    {
      title: 'Tide Song',
      artist: 'Quay Singers',
      album: 'Harbour Album',
      track: 1,
      lyrics: 'Plain words in the tags\nNo time on them',
    },
    2,
    4,
  )
  picture(join(music, 'Harbour', 'cover.png'), 'blue')
  app = await startApp({ pickFolder: () => music, demo: 10 })
  await app.page.evaluate(() => window.cadence.invoke('settings:update', { loudness: 'off' }))
}, 120_000)
afterAll(async () => {
  await app?.close()
  rmSync(root, { recursive: true, force: true })
})

async function playFromAlbum(album: string, song: string): Promise<void> {
  const page = app.page
  // The now-playing screen covers the navigation while open.
  if (await page.getByTestId('now-playing-close').isVisible())
    await page.getByTestId('now-playing-close').click()
  await page.getByTestId('nav-search').click()
  await page.getByTestId('search-input').fill(album)
  const card = page.getByText(album, { exact: true }).first()
  await card.waitFor({ timeout: 30_000 })
  await card.click()
  await expect.poll(() => page.getByTestId('playlist-name').textContent(), POLL).toBe(album)
  await page.getByTestId('song-row').filter({ hasText: song }).getByTestId('song-name').dblclick()
  await page.getByTestId('player-open-now-playing').click()
  await page.getByTestId('now-playing-screen').waitFor()
  await expect.poll(() => page.getByTestId('now-playing-title').textContent(), POLL).toBe(song)
}

/**
 * The now-playing cover as the window shows it: loaded (its natural width), and its bytes (fetched from
 * its address here, the page's own policy leaving image addresses to `<img>`), as base64.
 */
async function shownCover(): Promise<string | undefined> {
  const cover = app.page.getByTestId('now-playing-cover')
  const { src, width } = await cover.evaluate((el) => ({
    src: (el as HTMLImageElement).src,
    width: (el as HTMLImageElement).naturalWidth,
  }))
  if (!width) return undefined
  const answer = await fetch(src)
  return answer.ok ? Buffer.from(await answer.arrayBuffer()).toString('base64') : `HTTP ${answer.status}`
}
const fileBase64 = (path: string) => readFileSync(path).toString('base64')

describe('a chosen folder’s songs in the app', () => {
  // The folder is chosen once, before the tests, as a person does it in Settings; each test then plays
  // from it, so none depends on another's having run.
  beforeAll(async () => {
    await addMusicFolder(app.page, 2, 60_000)
  }, 120_000)

  it('plays an MP3 with its embedded cover and the timed lyrics of its sidecar .lrc', async () => {
    await playFromAlbum('Quay Album', 'Rope Song')
    await expect.poll(shownCover, POLL).toBe(fileBase64(join(root, 'red.png')))
    await expect
      .poll(() => app.page.getByTestId('lyrics-line').allTextContents(), POLL)
      .toEqual(expect.arrayContaining(['Sidecar words on the quay', 'Second line']))
    await expect
      .poll(() => app.page.locator('[data-testid="lyrics-line"][aria-current="true"]').count(), POLL)
      .toBe(1)
  }, 180_000)

  it('plays a FLAC with the cover.png beside it and the untimed lyrics of its tags', async () => {
    await playFromAlbum('Harbour Album', 'Tide Song')
    await expect.poll(shownCover, POLL).toBe(fileBase64(join(music, 'Harbour', 'cover.png')))
    await expect
      .poll(() => app.page.getByTestId('now-playing-screen').textContent(), POLL)
      .toContain('Plain words in the tags')
  }, 180_000)
})
