import { describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { chooseGainDb, dbToGain, replayGainLoudness } from '@shared/audio/gain'
import { createGainStage } from '@renderer/services/player/audio/gain-stage'
import type { Track } from '@renderer/services/player/audio/track'
import { createResolveCache } from '@renderer/services/player/resolve-cache'

/** A song's ReplayGain tags as its first gain, until its loudness is measured (issue 36). */

describe('chooseGainDb with ReplayGain', () => {
  it('prefers measured loudness, else ReplayGain (track gain toward the target), else the safe gain', () => {
    const tags = { trackGain: -6.5, trackPeak: 0.912345 }
    // ReplayGain's reference is -18 LUFS: a -6.5 dB track gain means -11.5 LUFS, 2.5 dB over -14.
    expect(replayGainLoudness(tags).integrated).toBeCloseTo(-11.5)
    expect(chooseGainDb(undefined, '-14', tags)).toBeCloseTo(-2.5)
    expect(chooseGainDb(undefined, '-18', tags)).toBeCloseTo(-6.5)
    // Measured wins.
    expect(chooseGainDb({ integrated: -10, truePeak: -0.2 }, '-14', tags)).toBeCloseTo(-4)
    // Neither: the safe gain for a song not measured yet.
    expect(chooseGainDb(undefined, '-14')).toBeCloseTo(-7)
    expect(chooseGainDb(undefined, 'off', tags)).toBe(0)
  })

  it('raises a quiet song only as far as its peak allows; without a peak tag it is not raised', () => {
    // +6 dB track gain: -24 LUFS, 10 dB under -14; peak 0.3 (-10.46 dBFS) leaves 9.46 dB to -1 dBTP.
    expect(chooseGainDb(undefined, '-14', { trackGain: 6, trackPeak: 0.3 })).toBeCloseTo(9.457, 2)
    expect(chooseGainDb(undefined, '-14', { trackGain: 6 })).toBe(0)
  })
})

describe('gain stage: a resolved song plays at its ReplayGain first', () => {
  const url = 'https://music.test/song/7.flac'
  const track = () =>
    ({ url, streamed: false, disposed: false, gainDb: 0, output: { gain: { value: 1 } } }) as unknown as Track

  it("starts the track at the gain of the song's meta.replayGain", async () => {
    const song = (replayGain?: object): Song =>
      ({
        id: 7,
        name: 'Tagged',
        tns: [],
        artists: [],
        privilege: { playable: true, bitrates: [320000] },
        meta: { url, ...(replayGain ? { replayGain } : {}) },
      }) as unknown as Song
    const apply = createGainStage(
      { loudnessTarget: () => '-14' },
      () => Promise.reject(new Error('not fetched')),
      () => undefined,
    )

    const plain = track()
    apply(plain)
    expect(plain.gainDb).toBeCloseTo(-7)

    const resolve = createResolveCache({
      resolve: () => Promise.resolve(song({ trackGain: -6.5, trackPeak: 0.912345 })),
      quality: () => 'exhigh',
    })
    await resolve(song())
    const tagged = track()
    apply(tagged)
    expect(tagged.gainDb).toBeCloseTo(-2.5)
    expect(tagged.output.gain.value).toBeCloseTo(dbToGain(-2.5))
  })

  it('ignores ReplayGain tags a source got wrong', async () => {
    const other = 'https://music.test/song/8.flac'
    const apply = createGainStage(
      { loudnessTarget: () => '-14' },
      () => Promise.reject(new Error('no')),
      () => undefined,
    )
    const resolve = createResolveCache({
      resolve: () =>
        Promise.resolve({
          id: 8,
          name: 'Wrong',
          tns: [],
          artists: [],
          privilege: { playable: true, bitrates: [320000] },
          meta: { url: other, replayGain: { trackGain: '-6.5 dB' } },
        } as unknown as Song),
      quality: () => 'exhigh',
    })
    await resolve({ id: 8, name: 'Wrong', tns: [], artists: [] } as unknown as Song)
    const wrong = { ...track(), url: other } as Track
    apply(wrong)
    expect(wrong.gainDb).toBeCloseTo(-7)
  })
})
