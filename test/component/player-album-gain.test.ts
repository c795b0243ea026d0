import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { Song } from '@shared/api/models'
import { chooseGainDb } from '@shared/audio/gain'
import { inAlbumOrder } from '@shared/player/album-order'
import { DEFAULT_SETTINGS } from '@shared/settings'
import { usePlayerStore } from '@renderer/stores/player'
import { createGainStage } from '@renderer/services/player/audio/gain-stage'
import type { SongPair } from '@renderer/services/player/audio/gapless'
import type { Track } from '@renderer/services/player/audio/track'
import { FakeAudio, resolved, song } from './player-fakes'

/**
 * ReplayGain's album mode (issue 36): while the queue plays an album's songs in the album's order, each
 * plays at the album's gain and peak, not its own track gain; measured loudness still comes first.
 */

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => undefined,
}))
/** The Web Audio output's gapless side as the engine sees it: told which song follows. */
class GaplessAudio extends FakeAudio {
  prepared: string[] = []
  prepare(url: string | undefined, _songs?: SongPair) {
    if (url) this.prepared.push(url)
  }
}
const outputs: GaplessAudio[] = []
vi.mock('@renderer/services/player/engine', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@renderer/services/player/engine')>()),
  createPlayerOutput: () => {
    const output = new GaplessAudio()
    outputs.push(output)
    return output
  },
}))

/** Tags as a rip's: each track its own gain, the album one gain for all (its loudest track's level). */
const TAGS: Record<number, { trackGain: number; trackPeak: number; albumGain: number; albumPeak: number }> = {
  1: { trackGain: -2, trackPeak: 0.5, albumGain: -6.5, albumPeak: 0.9 },
  2: { trackGain: 3, trackPeak: 0.25, albumGain: -6.5, albumPeak: 0.9 },
  3: { trackGain: -6, trackPeak: 0.9, albumGain: -6.5, albumPeak: 0.9 },
}
/** Tracks 1–3 of album 500 (no: their track numbers), and song 9 of another album. */
const track = (n: number) =>
  song(n, { album: { id: 500, name: 'Seam Sessions', artists: [] }, no: n, cd: '01' })
const single = song(9)

const catalogue = new Map<number, Song>()
beforeEach(() => {
  setActivePinia(createPinia())
  outputs.length = 0
  catalogue.clear()
  for (const s of [track(1), track(2), track(3), single]) catalogue.set(Number(s.id), s)
  invoke.mockReset()
  invoke.mockImplementation(async (channel: string, args: { id: number }) => {
    if (channel === 'settings:get') return { ...DEFAULT_SETTINGS, loudness: '-18' }
    if (channel === 'player:resolve')
      return resolved(catalogue.get(args.id)!, TAGS[args.id] ? { replayGain: TAGS[args.id] } : {})
    return undefined
  })
})

/** The gain the output's gain stage starts the song at `url` with (at −18 LUFS: the tags' own gain). */
function startGain(url: string): number {
  const apply = createGainStage(
    { loudnessTarget: () => '-18' },
    () => Promise.reject(new Error('not measured here')),
    () => undefined,
  )
  const t = { url, streamed: false, disposed: false, gainDb: 0, output: { gain: { value: 1 } } }
  apply(t as unknown as Track)
  return t.gainDb
}

async function play(songs: Song[]): Promise<GaplessAudio> {
  const player = usePlayerStore()
  await player.playSongs(songs, 0)
  await flushPromises()
  const output = outputs.at(-1)!
  expect(output.src).not.toBe('')
  return output
}

describe('album gain', () => {
  it('chooses the album gain and peak in album order, the track gain otherwise; measured first', () => {
    const tags = TAGS[2]
    expect(chooseGainDb(undefined, '-18', tags)).toBeCloseTo(3)
    expect(chooseGainDb(undefined, '-18', tags, true)).toBeCloseTo(-6.5)
    // At −14 LUFS a raise is capped by the peak in use: the album's 0.9 (−0.92 dBFS) leaves none of the
    // 2 dB an album gain of −2 asks; the track's 0.25 lets its 7 dB through.
    expect(chooseGainDb(undefined, '-14', { ...tags, albumGain: -2 }, true)).toBe(0)
    expect(chooseGainDb(undefined, '-14', { ...tags, albumGain: -2, albumPeak: 0.5 }, true)).toBeCloseTo(2)
    expect(chooseGainDb(undefined, '-14', { ...tags, albumGain: -2 })).toBeCloseTo(7)
    // No album gain in the tags: the track gain, in album order too.
    expect(chooseGainDb(undefined, '-18', { trackGain: 3, trackPeak: 0.25 }, true)).toBeCloseTo(3)
    expect(chooseGainDb({ integrated: -20, truePeak: -6 }, '-18', tags, true)).toBeCloseTo(2)
  })

  it('says a song plays in its album’s order when a neighbour is of its album, before or after it there', () => {
    const [one, two, three] = [track(1), track(2), track(3)]
    expect(inAlbumOrder(undefined, one, two)).toBe(true)
    expect(inAlbumOrder(one, two, three)).toBe(true)
    expect(inAlbumOrder(one, three, undefined)).toBe(true)
    expect(inAlbumOrder(single, two, single)).toBe(false)
    expect(inAlbumOrder(three, two, one)).toBe(false)
    // Disc 2's first track after disc 1's last.
    expect(inAlbumOrder({ ...three, no: 12 }, { ...one, cd: '2' }, undefined)).toBe(true)
    // A source that gives no track numbers: no album order known.
    expect(inAlbumOrder({ ...one, no: undefined }, { ...two, no: undefined }, undefined)).toBe(false)
  })

  it('plays an album in track order at its album gain, the song prepared to follow too', async () => {
    const output = await play([track(1), track(2), track(3)])
    expect(startGain(output.src)).toBeCloseTo(-6.5)
    await vi.waitFor(() => expect(output.prepared).toHaveLength(1))
    expect(output.prepared[0]).toMatch(/\/media\/2\.wav/)
    expect(startGain(output.prepared[0])).toBeCloseTo(-6.5)
  })

  it('plays a song of an album among others, or the album out of order, at its track gain', async () => {
    const among = await play([track(2), single, track(1)])
    expect(startGain(among.src)).toBeCloseTo(3)
    const reversed = await play([track(3), track(2), track(1)])
    expect(startGain(reversed.src)).toBeCloseTo(-6)
    expect(reversed.src).toMatch(/\/media\/3\.wav/)
    await vi.waitFor(() => expect(reversed.prepared.at(-1)).toMatch(/\/media\/2\.wav/))
    expect(startGain(reversed.prepared.at(-1)!)).toBeCloseTo(3)
  })
})
