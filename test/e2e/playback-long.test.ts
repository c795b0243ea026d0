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
    app.mediaRequests.length = 0
    await playSongs(app.page, [song])
    await waitForClock(app.page, 9, 30_000)
    const clock = await app.page
      .getByTestId('player-audio')
      .evaluate((element) => (element as HTMLAudioElement).currentTime)
    // Playback reads 5 s at a time (its first read 0.25 s); the loudness measurement's ranges (1 MB, and
    // the rest of the file) are told apart by their size.
    const reads = app.mediaRequests
      .map((request) => /bytes=(\d+)-(\d+)/.exec(request.range ?? ''))
      .filter((match): match is RegExpExecArray => !!match && match[1] !== '0')
      .map((match) => ({ start: Number(match[1]), end: Number(match[2]) }))
      .filter((read) => read.end - read.start + 1 < 1024 * 1024)
    // The size most reads have: 5 s.
    const sizes = reads.map((read) => read.end - read.start + 1)
    const common = sizes.reduce((best, size) =>
      sizes.filter((other) => other === size).length > sizes.filter((other) => other === best).length
        ? size
        : best,
    )
    const bytesPerSecond = common / 5
    const readTo = Math.max(...reads.map((read) => read.end)) / bytesPerSecond
    // The output keeps 20 s of the clock read ahead (less up to one 0.25 s tick).
    expect(readTo).toBeGreaterThan(clock + 18)
  })
})
