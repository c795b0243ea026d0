import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { measureBoundaries } from '../bench/audio-measure'
import {
  ALBUM_CUTS,
  ALBUM_PEAK,
  ALBUM_RATE,
  albumSignal,
  writeAlbumSignal,
  writeGaplessAlbum,
} from '../support/gapless-album'
import type { AlbumFormat } from '../support/gapless-album'
import { startApp } from './harness'
import type { App } from './harness'
import { addMusicFolder } from './sources-support'
import { readSchedule, scheduledSeconds, startScheduleLog } from './schedule-support'

/**
 * A gaplessly ripped album in a chosen music folder plays through its track boundaries without a gap,
 * end to end: one continuous signal (`test/support/gapless-album.ts`, as `bench:audio` plays it) cut
 * into three tracks at samples on no codec frame boundary, each encoded on its own as MP3 (LAME/Xing
 * header) and as AAC in MP4 (iTunes' `iTunSMPB`, no edit list); the folder chosen in Settings, each
 * album played from its page (Play all). What the app's output schedules (`schedule-support.ts`: every
 * chunk it starts, on the audio clock's frames) must be the signal itself: each track's first frame on
 * the frame after the previous track's last, none missing or doubled, the encoder's delay and padding
 * trimmed, so the signal runs on across each boundary as it was before it was cut.
 *
 * The sound itself is not recorded here (the e2e harness plays muted; `npm run bench:audio -- --only
 * gapless-album` records the same albums from a PulseAudio null sink).
 */
const root = mkdtempSync(join(tmpdir(), 'cadence-e2e-folder-gapless-'))
const music = join(root, 'My Music')
/** Three tracks: 5.00 s, 4.77 s and 5.25 s of the signal. */
const CUTS = ALBUM_CUTS.slice(0, 4)
const ALBUMS: Record<'mp3' | 'm4a-itunes', string> = {
  mp3: 'Seam Sessions MP3',
  'm4a-itunes': 'Seam Sessions AAC',
}
const title = (format: AlbumFormat, n: number) => `${format === 'mp3' ? 'Seam' : 'Join'} ${n}`
let app: App
const POLL = { timeout: 60_000, interval: 250 }

beforeAll(async () => {
  mkdirSync(music, { recursive: true })
  const signal = join(root, 'signal.wav')
  writeAlbumSignal(signal, Math.ceil(CUTS[CUTS.length - 1] / ALBUM_RATE) + 1)
  for (const format of ['mp3', 'm4a-itunes'] as const)
    await writeGaplessAlbum(signal, join(music, format), format, CUTS, (n) => ({
      title: title(format, n),
      album: ALBUMS[format],
      artist: 'Seam Quartet',
    }))
  app = await startApp({ pickFolder: () => music, demo: 10 })
  // The songs' own level: no gain to ramp while the loudness is measured.
  await app.page.evaluate(() => window.cadence.invoke('settings:update', { loudness: 'off' }))
  const page = app.page
  await addMusicFolder(page, 6, 90_000)
  await startScheduleLog(page)
}, 180_000)
afterAll(async () => {
  await app?.close()
  rmSync(root, { recursive: true, force: true })
})

async function playAlbum(album: string): Promise<void> {
  const page = app.page
  await page.getByTestId('nav-search').click()
  await page.getByTestId('search-input').fill(album)
  const card = page.getByText(album, { exact: true }).first()
  await card.waitFor({ timeout: 30_000 })
  await card.click()
  await expect.poll(() => page.getByTestId('playlist-name').textContent(), POLL).toBe(album)
  await expect.poll(() => page.getByTestId('song-row').count(), POLL).toBe(CUTS.length - 1)
  await startScheduleLog(page)
  await page.getByTestId('play-all').click()
}

describe('a gaplessly ripped album in a chosen music folder', () => {
  for (const format of ['mp3', 'm4a-itunes'] as const) {
    it(`${format}: plays through its boundaries with nothing missing or doubled`, async () => {
      const page = app.page
      await playAlbum(ALBUMS[format])
      const last = title(format, CUTS.length - 1)
      await page.getByTestId('player-title').getByText(last, { exact: true }).waitFor({ timeout: 60_000 })
      // The last track's last chunk is scheduled ahead of the clock (the read-ahead), before it ends.
      const albumSeconds = CUTS[CUTS.length - 1] / ALBUM_RATE
      await expect.poll(() => scheduledSeconds(page), POLL).toBeGreaterThan(albumSeconds - 0.001)
      const { rate, signal, holes, overlaps, chunks, late, layout } = await readSchedule(page)
      console.log(`${format}: ${chunks} chunks (${late} started after their time) at ${rate} Hz`)
      // Every track resampled to the context's rate on its own: each its length within a frame.
      const trackFrames = CUTS.slice(1).map((to, i) => ((to - CUTS[i]) * rate) / ALBUM_RATE)
      const albumFrames = trackFrames.reduce((sum, frames) => sum + frames, 0)

      // One run of frames from the album's first to its last: no frame left empty, none played twice.
      expect({ holes, overlaps }, layout.join(', ')).toEqual({ holes: 0, overlaps: 0 })
      // As long as the album (the encoder's delay and padding, ~50 ms a track, not in it).
      expect(Math.abs(signal.length - albumFrames)).toBeLessThanOrEqual(trackFrames.length)
      // The signal runs on across each boundary: where the stretch 60–20 ms before it and the one
      // 20–60 ms after it are found (by correlation with the signal) says what time the boundary added.
      const boundaries = CUTS.slice(1, -1).map((cut) => cut / ALBUM_RATE)
      const measured = measureBoundaries(signal, albumSignal, boundaries, 0, rate, ALBUM_PEAK)
      expect(Math.abs(measured.start)).toBeLessThan(1)
      for (const [i, b] of measured.boundaries.entries()) {
        const seen = `boundary ${i + 1}: ${JSON.stringify(b)}`
        expect(Math.min(...b.correlation), seen).toBeGreaterThan(0.95)
        // Within 1 ms (a frame lost or added is 0.02 ms), and no silence at it.
        expect(Math.abs(b.addedMs), seen).toBeLessThan(1)
        expect(b.silenceMs, seen).toBeLessThan(0.5)
        // LAME's tracks join as one: around the boundary the signal within 10 % of its peak. AAC's are
        // not held to this: ffmpeg's AAC encoder puts a transient in the first 768 samples of a track
        // that starts abruptly (in ffmpeg's own decode too).
        if (format === 'mp3') expect(b.largestOff, seen).toBeLessThan(0.1)
        console.log(`${format} ${seen}`)
      }
    }, 180_000)
  }
})
