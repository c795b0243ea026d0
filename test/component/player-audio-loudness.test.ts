import { beforeEach, describe, expect, it, vi } from 'vitest'

const measured = new Set<string>()
const measureLoudness = vi.fn(async () => ({ integrated: -10, truePeak: -2 }))
vi.mock('@renderer/services/player/audio/loudness', () => ({
  measureLoudness,
  storedLoudness: (url: string) => (measured.has(url) ? { integrated: -10, truePeak: -2 } : undefined),
}))

const { measureAhead } = await import('@renderer/services/player/audio/gain-stage')
const load = vi.fn(async () => new Response())

describe('the loudness of the song that follows', () => {
  beforeEach(() => {
    measured.clear()
    measureLoudness.mockClear()
  })

  it('is measured as soon as the song is named, while the current one plays', () => {
    measureAhead({ loudnessTarget: () => '-14' }, load, 'cadence-media://song/builtin/2')
    expect(measureLoudness).toHaveBeenCalledWith('cadence-media://song/builtin/2', load)
  })

  it('is not measured again, nor with normalisation off, nor when no song follows', () => {
    measured.add('cadence-media://song/builtin/2')
    measureAhead({ loudnessTarget: () => '-14' }, load, 'cadence-media://song/builtin/2')
    measureAhead({ loudnessTarget: () => 'off' }, load, 'cadence-media://song/builtin/3')
    measureAhead({ loudnessTarget: () => '-18' }, load, undefined)
    expect(measureLoudness).not.toHaveBeenCalled()
  })
})
