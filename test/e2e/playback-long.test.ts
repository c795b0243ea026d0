import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { startApp } from './harness'
import type { App } from './harness'
import { findSongs, playSongs, playable, waitForClock } from './playback-support'

/**
 * A song longer than what the output reads ahead (20 s of the clock) goes on being read while it plays.
 * Once, a pump that found nothing to read stayed marked as running, and no read followed: songs went
 * silent about 25 s in while the clock, the seek bar and the lyrics went on.
 */
describe('a long song', () => {
  let app: App
  let song: Song

  beforeAll(async () => {
    app = await startApp()
    ;[song] = await findSongs(
      app,
      1,
      (candidate) => playable(candidate) && (candidate.duration ?? 0) > 38_000,
    )
    await app.page.getByTestId('now-playing').waitFor()
  })
  afterAll(() => app?.close())

  it('is read on ahead of the playhead, past the first 20 s read at its start', async () => {
    // Only the playback's reads: the loudness measurement reads the file too (1 MB at a time, then the
    // rest), and its last range reaches the end of the file whatever the playback does.
    await app.page.evaluate(() => window.cadence.invoke('settings:update', { loudness: 'off' }))
    app.mediaRequests.length = 0
    await playSongs(app.page, [song])
    await waitForClock(app.page, 9, 30_000)
    const clock = await app.page
      .getByTestId('player-audio')
      .evaluate((element) => (element as HTMLAudioElement).currentTime)
    const requests = [...app.mediaRequests]
    // The file's bytes per second of the song, from its size as the answers give it (a WAV file: a header
    // of a few dozen bytes, then its samples at a constant rate).
    const size = Math.max(
      ...requests.map((request) => Number(/\/(\d+)$/.exec(request.contentRange ?? '')?.[1] ?? 0)),
    )
    const bytesPerSecond = size / ((song.duration ?? 0) / 1000)
    const readTo =
      Math.max(...requests.map((request) => Number(/bytes=\d+-(\d+)/.exec(request.range ?? '')?.[1] ?? 0))) /
      bytesPerSecond
    // The output keeps 20 s of the clock read ahead (less up to one 0.25 s tick).
    expect(
      readTo,
      `read to ${readTo.toFixed(1)} s at ${clock.toFixed(1)} s: ${requests.map((r) => r.range).join(', ')}`,
    ).toBeGreaterThan(clock + 18)
  })
})
