import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { createLoudnessMeter } from '@shared/audio/loudness'
import { decodeFrames, parseWavHeader } from '@shared/audio/codec/wav'
import { startApp } from './harness'
import type { App } from './harness'
import { findSongs, playable, playSongs, waitForClock } from './playback-support'
import { addSlowSource } from './slow-source'
import type { SlowSource } from './slow-source'

/** The link to the data source: a song of about 1.7 MB takes some 4 s to arrive whole. */
const LINK_BYTES_PER_SECOND = 400_000

/**
 * A song's first play: main keeps a copy of it as it arrives and answers each range as far as the copy
 * has come, so the loudness measurement's 1 MB ranges come back shorter than asked. The loudness stored
 * for the song is still the whole song's, measured on every sample in order. Once, the measurement went
 * on from where it had asked to, not from where the answer ended, and stored the loudness of the pieces
 * it happened to get.
 */
describe('the loudness measured at a song’s first play', () => {
  let app: App
  let song: Song
  let source: SlowSource

  beforeAll(async () => {
    app = await startApp({ demo: 40 })
    // A data source over a link slow enough that the copy is still arriving while the song is measured.
    source = await addSlowSource(app, LINK_BYTES_PER_SECOND)
    ;[song] = await findSongs(
      app,
      1,
      (candidate) => playable(candidate) && (candidate.duration ?? 0) > 38_000,
    )
    await app.page.getByTestId('now-playing').waitFor()
  })
  afterAll(async () => {
    await app?.close()
    await source?.close()
  })

  it('is the whole song’s, though main answers its ranges as far as the copy has come', async () => {
    app.mediaRequests.length = 0
    await playSongs(app.page, [song])
    await waitForClock(app.page, 0.5, 30_000)
    const stored = () =>
      app.page.evaluate((id) => {
        const key = Object.keys(localStorage).find((name) => name.endsWith(`:${id}`))
        return key
          ? (JSON.parse(localStorage.getItem(key)!) as { integrated: number; truePeak: number })
          : null
      }, song.id)
    await expect.poll(stored, { timeout: 30_000 }).not.toBeNull()
    const measured = (await stored())!

    // Main did answer short: some range of the song came back with fewer bytes than it asked for.
    const requests = app.mediaRequests.filter((request) => request.url.includes(`/${song.id}?`))
    const short = requests.filter((request) => {
      const asked = /bytes=(\d+)-(\d+)/.exec(request.range ?? '')
      const given = /bytes (\d+)-(\d+)\//.exec(request.contentRange ?? '')
      return asked && given && Number(given[2]) < Number(asked[2])
    })
    expect(short.length).toBeGreaterThan(0)

    // The whole file, as main serves it once the copy is kept, measured by the same meter in one go.
    const whole = await (await app.core.media(new Request(requests[0].url))).arrayBuffer()
    const layout = parseWavHeader(whole, whole.byteLength)!
    const meter = createLoudnessMeter(layout.sampleRate, layout.channels)
    meter.push(decodeFrames(layout, whole.slice(layout.dataOffset, layout.dataOffset + layout.dataBytes)))
    const reference = meter.result()
    expect(Math.abs(measured.integrated - reference.integrated)).toBeLessThan(0.01)
    expect(Math.abs(measured.truePeak - reference.truePeak)).toBeLessThan(0.01)
  })
})
