import { describe, expect, it } from 'vitest'
import {
  chooseBitrate,
  preferredBitrate,
  QUALITY_BITRATES,
  QUALITY_NAMES,
  qualityOfBitrate,
} from '@shared/player/quality'

const all = { bitrates: [128000, 192000, 320000, 999000] }

describe('chooseBitrate', () => {
  it('exports the quality levels lowest first', () => {
    expect(QUALITY_NAMES).toEqual(['standard', 'higher', 'exhigh', 'lossless'])
    expect(QUALITY_BITRATES).toEqual({ standard: 128000, higher: 192000, exhigh: 320000, lossless: 999000 })
  })

  it('picks the preferred bitrate when it is available', () => {
    expect(chooseBitrate(all, 'standard')).toBe(128000)
    expect(chooseBitrate(all, 'higher')).toBe(192000)
    expect(chooseBitrate(all, 'exhigh')).toBe(320000)
    expect(chooseBitrate(all, 'lossless')).toBe(999000)
  })

  it('picks the best available bitrate below the preference', () => {
    expect(chooseBitrate({ bitrates: [128000, 320000] }, 'higher')).toBe(128000)
    expect(chooseBitrate({ bitrates: [320000, 128000, 192000] }, 'lossless')).toBe(320000)
    expect(chooseBitrate({ bitrates: [96000, 128000, 320000] }, 256000)).toBe(128000)
  })

  it('accepts any lossless bitrate for a lossless preference', () => {
    expect(chooseBitrate({ bitrates: [128000, 320000, 1411200] }, 'lossless')).toBe(1411200)
    expect(chooseBitrate({ bitrates: [1411200, 999000] }, 999000)).toBe(1411200)
  })

  it('falls back to the lowest available when all are above the preference', () => {
    expect(chooseBitrate({ bitrates: [999000, 320000] }, 'standard')).toBe(320000)
  })

  it('uses maxBitrate capped at the preference when there is no bitrate list', () => {
    expect(chooseBitrate({ maxBitrate: 999000 }, 'exhigh')).toBe(320000)
    expect(chooseBitrate({ maxBitrate: 192000 }, 'exhigh')).toBe(192000)
    expect(chooseBitrate({ bitrates: [], maxBitrate: 1411200 }, 'lossless')).toBe(1411200)
  })

  it('uses the preference itself without privilege, 320000 by default', () => {
    expect(chooseBitrate(undefined, 'higher')).toBe(192000)
    expect(chooseBitrate(null, 'lossless')).toBe(999000)
    expect(chooseBitrate({})).toBe(320000)
    expect(chooseBitrate(undefined)).toBe(320000)
  })

  it('ignores invalid bitrates and preferences', () => {
    const odd = { bitrates: [Number.NaN, -1, 0, '128000' as unknown as number, 192000] }
    expect(chooseBitrate(odd, 'exhigh')).toBe(192000)
    expect(chooseBitrate({ maxBitrate: Number.NaN }, 'standard')).toBe(128000)
    expect(chooseBitrate(undefined, Number.NaN)).toBe(320000)
    expect(chooseBitrate(undefined, 'ultra' as 'standard')).toBe(320000)
    expect(chooseBitrate({ bitrates: null }, 'higher')).toBe(192000)
  })
})

describe('preferredBitrate', () => {
  it('turns a quality name or number into a bitrate', () => {
    expect(preferredBitrate('higher')).toBe(192000)
    expect(preferredBitrate(256000)).toBe(256000)
    expect(preferredBitrate(undefined)).toBe(320000)
    expect(preferredBitrate('toString' as 'standard')).toBe(320000)
  })
})

describe('qualityOfBitrate', () => {
  it('names the level a bitrate reaches', () => {
    expect(qualityOfBitrate(96000)).toBe('standard')
    expect(qualityOfBitrate(128000)).toBe('standard')
    expect(qualityOfBitrate(192000)).toBe('higher')
    expect(qualityOfBitrate(320000)).toBe('exhigh')
    expect(qualityOfBitrate(1411200)).toBe('lossless')
  })
})
