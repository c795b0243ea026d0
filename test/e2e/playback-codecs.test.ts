import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { damagedFlac } from '../support/audio-fixtures'
import { startApp } from './harness'
import type { App } from './harness'
import { audioState, playSongs, seekWithSlider, songDetail, title, waitForClock } from './playback-support'

/** The songs' requests on the media scheme (the cover's pixels for the tint come on it too). */
const songRequests = <T extends { url: string }>(requests: T[]): T[] =>
  requests.filter((request) => request.url.startsWith('cadence-media://song/'))

const FIXTURES = join(import.meta.dirname, '../fixtures/audio')

/**
 * A music folder of FLAC, MP3 and AAC (M4A) files served by the reference data source (`--library`),
 * played by the app: each is streamed by byte ranges and decoded a stretch at a time (`codec-source.ts`),
 * never fetched whole, and the queue moves from one to the next.
 */
describe('FLAC, MP3 and AAC from a music folder', () => {
  let app: App
  let library: string
  const songs = new Map<string, Song>()

  beforeAll(async () => {
    library = await mkdtemp(join(tmpdir(), 'cadence-library-'))
    for (const name of ['song.flac', 'song-cbr.mp3', 'song-vbr.mp3', 'song.m4a'])
      await copyFile(join(FIXTURES, name), join(library, name))
    await writeFile(join(library, 'damaged.flac'), await damagedFlac('Probe FLAD'))
    app = await startApp({ demo: 0, server: { library } })
    for (let id = 1; id <= 5; id++) {
      const song = await songDetail(app, id)
      songs.set(song.name, song)
    }
    await app.page.getByTestId('now-playing').waitFor()
  })

  afterAll(async () => {
    await app?.close()
    await rm(library, { recursive: true, force: true })
  })

  it('plays each file from its first bytes with its own length, and seeks in it', async () => {
    const { page } = app
    for (const name of ['Probe FLAC', 'Probe MP3 CBR', 'Probe MP3 VBR', 'Probe AAC']) {
      const song = songs.get(name)!
      expect(song, name).toBeDefined()
      app.mediaRequests.length = 0
      await playSongs(page, [song])
      await waitForClock(page, 0.5)
      await expect.poll(() => title(page), { timeout: 10_000 }).toContain(name)
      const duration = await page
        .getByTestId('player-audio')
        .evaluate((el) => (el as HTMLAudioElement).duration)
      expect(duration, name).toBeCloseTo(6, 2)
      await seekWithSlider(page, 4000)
      await page.waitForFunction(
        () => {
          const audio = document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement
          return !audio.paused && audio.currentTime > 4.2 && audio.currentTime < 5.5
        },
        undefined,
        { timeout: 10_000, polling: 50 },
      )
      // Ranged reads only: a whole-file fetch is what the old path (decodeAudioData) did.
      const requests = songRequests(app.mediaRequests)
      expect(requests.length, name).toBeGreaterThan(0)
      expect(
        requests.filter((request) => !request.range),
        name,
      ).toEqual([])
      expect(requests.every((request) => request.status === 206 || request.status === 200)).toBe(true)
    }
  })

  it('measures each file’s loudness as ffmpeg’s EBU R128 meter does', async () => {
    const names = ['Probe FLAC', 'Probe MP3 CBR', 'Probe MP3 VBR', 'Probe AAC']
    // Each is measured when it is first played (once per source and song).
    for (const name of names) {
      await playSongs(app.page, [songs.get(name)!])
      await waitForClock(app.page, 0.2)
    }
    const measured = async () =>
      app.page.evaluate(
        (ids) => {
          const found: Record<string, { integrated: number; truePeak: number }> = {}
          for (const key of Object.keys(localStorage)) {
            const id = /^cadence\.loudness\..*:(\d+)$/.exec(key)?.[1]
            if (id && ids.includes(Number(id))) found[id] = JSON.parse(localStorage.getItem(key)!)
          }
          return found
        },
        names.map((name) => songs.get(name)!.id),
      )
    await expect
      .poll(async () => Object.keys(await measured()).length, { timeout: 20_000 })
      .toBe(names.length)
    const values = await measured()
    // `ffmpeg -i FILE -af ebur128=peak=true -f null -`: integrated loudness and true peak of each file
    // (the MP3 at a constant 128 kbit/s came out 0.5 LU quieter than its source).
    const reference: Record<string, [number, number]> = {
      'Probe FLAC': [-8.7, -6.9],
      'Probe MP3 CBR': [-9.2, -7.4],
      'Probe MP3 VBR': [-8.7, -6.7],
      'Probe AAC': [-8.7, -4.1],
    }
    for (const [name, [integrated, truePeak]] of Object.entries(reference)) {
      const value = values[songs.get(name)!.id]
      expect(Math.abs(value.integrated - integrated), name).toBeLessThan(0.15)
      expect(Math.abs(value.truePeak - truePeak), name).toBeLessThan(0.3)
    }
  })

  it('plays a FLAC file with a damaged frame on past it, streamed, with no error', async () => {
    const { page } = app
    const song = songs.get('Probe FLAD')!
    app.mediaRequests.length = 0
    await playSongs(page, [song])
    // The damaged frame is the second, 0.10–0.21 s in: Chromium's decoder drops it without an error.
    await waitForClock(page, 1)
    await expect.poll(() => title(page), { timeout: 10_000 }).toContain('Probe FLAD')
    await expect
      .poll(() => page.getByTestId('player-audio').evaluate((el) => (el as HTMLAudioElement).error), {
        timeout: 10_000,
      })
      .toBeNull()
    expect(songRequests(app.mediaRequests).filter((request) => !request.range)).toEqual([])
  })

  it('moves from a FLAC song to an MP3 song when it ends', async () => {
    const { page } = app
    await playSongs(page, [songs.get('Probe FLAC')!, songs.get('Probe MP3 CBR')!])
    await waitForClock(page, 0.3)
    await seekWithSlider(page, 5000)
    await page.waitForFunction(
      (name) => document.querySelector('[data-testid="now-playing"]')?.textContent?.includes(name),
      'Probe MP3 CBR',
      { timeout: 15_000, polling: 100 },
    )
    await waitForClock(page, 0.5)
    expect((await audioState(page)).paused).toBe(false)
  })
})
