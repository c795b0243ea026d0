import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from './harness'
import type { App } from './harness'
import { makeTrack, retag } from '../support/library-files'

/**
 * Settings → Music on this computer, end to end: a folder of files made by ffmpeg (FLAC, MP3, AAC in
 * MP4, Ogg Opus, WAV, with a sidecar .lrc) chosen through the folder picker (stubbed where the glue's
 * dialog is), its album in disc and track order, its artist, then files added, retagged, renamed and
 * deleted while the app runs.
 */
const root = mkdtempSync(join(tmpdir(), 'cadence-e2e-folders-'))
const music = join(root, 'My Music')
const album = join(music, 'Tide Album')
let app: App
const POLL = { timeout: 60_000, interval: 250 }

beforeAll(async () => {
  mkdirSync(album, { recursive: true })
  const tags = { artist: 'Harbour Lights', albumArtist: 'Harbour Lights', album: 'Tide Album' }
  // ffmpeg's WAV muxer writes no disc number: the WAV song is the album's first (disc 0 sorts first).
  makeTrack(join(album, 'a.wav'), { ...tags, title: 'Low Water', disc: 1, track: 1 }, 1)
  makeTrack(join(album, 'b.mp3'), { ...tags, title: 'Breakwater', disc: 1, track: 2 }, 2)
  makeTrack(join(album, 'c.m4a'), { ...tags, title: 'Spring Tide', disc: 1, track: 3 }, 3)
  makeTrack(join(album, 'd.opus'), { ...tags, title: 'Neap Tide', disc: 2, track: 1 }, 4)
  makeTrack(join(album, 'e.flac'), { ...tags, title: 'High Water', disc: 2, track: 2 }, 5)
  writeFileSync(join(album, 'b.lrc'), '[00:00.10]Sidecar words on the quay\n')
  app = await startApp({ pickFolder: () => music, demo: 10 })
}, 120_000)
afterAll(async () => {
  await app?.close()
  rmSync(root, { recursive: true, force: true })
})

const albumSongs = async () => {
  const page = app.page
  return page.locator('.album-view').getByTestId('song-name').allTextContents()
}

async function openAlbum(name: string): Promise<void> {
  const page = app.page
  await page.getByTestId('nav-search').click()
  await page.getByTestId('search-input').fill(name)
  const card = page.getByText(name, { exact: true }).first()
  await card.waitFor({ timeout: 30_000 })
  await card.click()
  await expect.poll(() => page.getByTestId('playlist-name').textContent(), POLL).toBe(name)
}

describe('music folders', () => {
  it('chooses a folder in Settings and shows its album in disc and track order, its artist', async () => {
    const page = app.page
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('music-folders-add').click()
    await expect.poll(() => page.getByTestId('music-folder-path').textContent(), POLL).toBe(music)
    await expect
      .poll(() => page.getByTestId('music-folder-summary').textContent(), POLL)
      .toMatch(/^5 songs · Last import /)

    await openAlbum('Tide Album')
    await expect
      .poll(albumSongs, POLL)
      .toEqual(['Low Water', 'Breakwater', 'Spring Tide', 'Neap Tide', 'High Water'])
    await expect.poll(() => page.getByTestId('playlist-creator').textContent(), POLL).toBe('Harbour Lights')
  }, 120_000)

  it('shows a file added, retagged, renamed and deleted while the app runs', async () => {
    makeTrack(
      join(album, 'f.mp3'),
      {
        artist: 'Harbour Lights',
        albumArtist: 'Harbour Lights',
        album: 'Tide Album',
        title: 'Slack Water',
        disc: 2,
        track: 3,
      },
      6,
    )
    // The album page is opened again each time: what the app showed before may be kept for a while.
    await expect
      .poll(async () => {
        await openAlbum('Tide Album')
        return albumSongs()
      }, POLL)
      .toEqual(['Low Water', 'Breakwater', 'Spring Tide', 'Neap Tide', 'High Water', 'Slack Water'])

    retag(join(album, 'e.flac'), { title: 'Highest Water' })
    renameSync(join(album, 'a.wav'), join(album, 'renamed low.wav'))
    unlinkSync(join(album, 'c.m4a'))
    await expect
      .poll(async () => {
        await openAlbum('Tide Album')
        return albumSongs()
      }, POLL)
      .toEqual(['Low Water', 'Breakwater', 'Neap Tide', 'Highest Water', 'Slack Water'])
  }, 180_000)
})
