import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { dbToGain } from '@shared/audio/gain'
import { DEFAULT_SETTINGS, EQ_BANDS } from '@shared/settings'
import {
  choosePreset,
  EQ_PRESETS,
  equaliserChain,
  equaliserStep,
  resetEqualiser,
  withBand,
  withPreamp,
} from '@renderer/services/player/audio/equaliser'
import type { EqualiserSetting } from '@renderer/services/player/audio/equaliser'
import { EQ_GLIDE_SECONDS, EQ_REMOVE_MS } from '@renderer/services/player/audio/equaliser-stage'
import { createOutputGraph } from '@renderer/services/player/audio/graph'
import { asContext, FakeBiquad, FakeContext, FakeGain, pathFrom } from './audio-fakes'
import type { FakeNode } from './audio-fakes'

const off = DEFAULT_SETTINGS.equaliser
const bass: EqualiserSetting = choosePreset(off, 'bass')

describe('the equaliser chain (pure)', () => {
  it('is nothing when off, or on and flat with no preamp', () => {
    expect(equaliserChain(undefined)).toBeUndefined()
    expect(equaliserChain(off)).toBeUndefined()
    expect(equaliserChain({ ...off, enabled: true })).toBeUndefined()
    expect(equaliserChain({ ...bass, enabled: false })).toBeUndefined()
  })

  it('is the preamp and all ten bands otherwise, so changing a band never changes the chain', () => {
    const chain = equaliserChain(bass)!
    expect(chain.preamp).toBe(-6)
    expect(chain.filters.map((f) => f.frequency)).toEqual([...EQ_BANDS])
    expect(chain.filters.map((f) => f.gain)).toEqual([...EQ_PRESETS.bass])
    // A preamp alone still makes the chain, with neutral bands.
    const quieter = equaliserChain({ ...off, enabled: true, preamp: -3 })!
    expect(quieter.preamp).toBe(-3)
    expect(quieter.filters.every((f) => f.gain === 0)).toBe(true)
  })

  it('inserts, retunes or removes the chain as it comes, changes and goes', () => {
    const chain = equaliserChain(bass)
    expect(equaliserStep(false, chain)).toBe('insert')
    expect(equaliserStep(true, chain)).toBe('retune')
    expect(equaliserStep(true, undefined)).toBe('remove')
    expect(equaliserStep(false, undefined)).toBe('none')
  })
})

describe('the equaliser settings as the controls change them', () => {
  it('takes a preset with its preamp and turns the equaliser on', () => {
    expect(choosePreset(off, 'rock')).toEqual({
      enabled: true,
      preset: 'rock',
      gains: [...EQ_PRESETS.rock],
      preamp: -4,
    })
    // "Custom" keeps the user's own gains.
    const mine = { ...off, gains: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], preamp: -2 }
    expect(choosePreset(mine, 'custom')).toEqual({ ...mine, enabled: true, preset: 'custom' })
  })

  it('makes a moved band custom, within ±12 dB, and ignores a band that does not exist', () => {
    const moved = withBand(bass, 9, 30)
    expect(moved.preset).toBe('custom')
    expect(moved.gains[9]).toBe(12)
    expect(moved.gains.slice(0, 9)).toEqual([...EQ_PRESETS.bass].slice(0, 9))
    expect(moved.preamp).toBe(bass.preamp)
    expect(withBand(bass, 10, 3)).toBe(bass)
    expect(withBand(bass, 2, Number.NaN)).toBe(bass)
  })

  it('clamps the preamp and resets to flat', () => {
    expect(withPreamp(bass, -40).preamp).toBe(-12)
    expect(resetEqualiser(bass)).toEqual({
      enabled: true,
      preset: 'flat',
      gains: Array(10).fill(0),
      preamp: 0,
    })
  })
})

describe('the equaliser in the graph', () => {
  let fake: FakeContext
  let settings: EqualiserSetting
  const made = () => createOutputGraph({ createContext: () => asContext(fake), equaliser: () => settings })
  const kinds = (nodes: FakeNode[]) => nodes.map((node) => node.kind)
  const biquads = () => fake.made.filter((node): node is FakeBiquad => node instanceof FakeBiquad)

  beforeEach(() => {
    vi.useFakeTimers()
    fake = new FakeContext()
    settings = off
  })
  afterEach(() => vi.useRealTimers())

  it('puts nothing between the volume and the limiter when off', () => {
    const graph = made()
    graph.graph()
    const path = pathFrom(graph.transport as unknown as FakeNode)
    expect(kinds(path)).toEqual(['gain', 'gain', 'compressor', 'gain', 'destination'])
    expect(biquads()).toEqual([])
  })

  it('plays through the preamp and ten filters when on, gliding to the preset', () => {
    settings = bass
    const graph = made()
    graph.graph()
    const path = pathFrom(graph.transport as unknown as FakeNode)
    expect(kinds(path)).toEqual([
      'gain',
      'gain',
      'gain',
      ...Array(10).fill('biquad'),
      'compressor',
      // The limiter's makeup gain taken off.
      'gain',
      'destination',
    ])
    const filters = path.slice(3, 13) as FakeBiquad[]
    expect(filters.map((f) => f.type)).toEqual(['lowshelf', ...Array(8).fill('peaking'), 'highshelf'])
    expect(filters.map((f) => f.frequency.value)).toEqual([...EQ_BANDS])
    expect(filters.map((f) => f.gain.target)).toEqual([...EQ_PRESETS.bass])
    expect((path[2] as FakeGain).gain.target).toBeCloseTo(dbToGain(-6))
  })

  it('glides a changed band on the same nodes: no new chain, the path never broken', () => {
    settings = bass
    const graph = made()
    graph.graph()
    const before = fake.made.length
    fake.currentTime = 42
    graph.applyEqualiser(withBand(bass, 4, 5))
    expect(fake.made.length).toBe(before)
    const band = pathFrom(graph.transport as unknown as FakeNode)[3 + 4] as FakeBiquad
    expect(band.gain.glides.at(-1)).toEqual({ value: 5, at: 42, constant: EQ_GLIDE_SECONDS })
    expect(pathFrom(graph.transport as unknown as FakeNode).at(-1)?.kind).toBe('destination')
  })

  it('turns on while playing by connecting the chain at neutral gains, then gliding to the settings', () => {
    const graph = made()
    graph.graph()
    graph.applyEqualiser(bass)
    const path = pathFrom(graph.transport as unknown as FakeNode)
    expect(path).toHaveLength(16)
    const filters = path.slice(3, 13) as FakeBiquad[]
    // Made at 0 dB (a biquad at 0 dB passes the signal unchanged, so the swap is silent).
    expect(filters.every((f) => f.gain.value === 0)).toBe(true)
    expect(filters.map((f) => f.gain.target)).toEqual([...EQ_PRESETS.bass])
  })

  it('turns off by gliding to neutral first and only then taking the chain out', () => {
    settings = bass
    const graph = made()
    graph.graph()
    graph.applyEqualiser(off)
    let path = pathFrom(graph.transport as unknown as FakeNode)
    expect(path).toHaveLength(16)
    expect((path.slice(3, 13) as FakeBiquad[]).every((f) => f.gain.target === 0)).toBe(true)
    expect((path[2] as FakeGain).gain.target).toBe(1)
    vi.advanceTimersByTime(EQ_REMOVE_MS)
    path = pathFrom(graph.transport as unknown as FakeNode)
    expect(kinds(path)).toEqual(['gain', 'gain', 'compressor', 'gain', 'destination'])
    expect(biquads().every((f) => f.outputs.size === 0)).toBe(true)
  })

  it('keeps the chain it was taking out when turned on again meanwhile', () => {
    settings = bass
    const graph = made()
    graph.graph()
    graph.applyEqualiser(off)
    graph.applyEqualiser(choosePreset(off, 'vocal'))
    vi.advanceTimersByTime(EQ_REMOVE_MS * 2)
    const path = pathFrom(graph.transport as unknown as FakeNode)
    expect(path).toHaveLength(16)
    expect(biquads()).toHaveLength(10)
    expect((path.slice(3, 13) as FakeBiquad[]).map((f) => f.gain.target)).toEqual([...EQ_PRESETS.vocal])
  })
})
