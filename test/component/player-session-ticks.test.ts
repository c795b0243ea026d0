import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ref } from 'vue'
import { createPlayerSession } from '@renderer/services/player/session'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
}))

const saves = () => invoke.mock.calls.filter(([channel]) => channel === 'player:save-session')

describe('the session saved while a song plays on', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
    invoke.mockReset()
    invoke.mockResolvedValue(null)
  })
  afterEach(() => vi.useRealTimers())

  it('is saved twice in a minute of the output’s ticks (4 a second), and at once on pause', async () => {
    const engine = {
      positionMs: 0,
      volume: 1,
      muted: false,
      setVolume: vi.fn(),
      setMuted: vi.fn(),
      load: vi.fn(async () => undefined),
    }
    const queue = { entries: [{ key: 1 }], snapshot: () => ({ entries: 'the queue' }), restore: vi.fn() }
    const session = createPlayerSession({ queue, engine, edits: [ref(0)] })
    await session.restore()
    invoke.mockClear()
    // A minute of playing: the engine reports the clock at each of the output's 250 ms ticks.
    for (let tick = 1; tick <= 240; tick++) {
      vi.setSystemTime(Date.now() + 250)
      engine.positionMs = tick * 250
      session.onProgress('tick')
    }
    // Each save makes main write its settings file: every 5 s was 12 a minute.
    expect(saves()).toHaveLength(2)
    session.onProgress('pause')
    expect(saves()).toHaveLength(3)
    expect(saves().at(-1)![1]).toMatchObject({ positionMs: 60_000 })
  })
})
