import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ref } from 'vue'
import { MAX_SAVED_QUEUE, createPlayerSession } from '@renderer/services/player/session'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
}))

function session(entries: number) {
  const queue = {
    entries: Array.from({ length: entries }, (_, i) => ({ key: i })),
    snapshot: () => ({ entries: 'the queue' }),
    restore: vi.fn(),
  }
  const engine = {
    positionMs: 1234,
    volume: 0.5,
    muted: false,
    setVolume: vi.fn(),
    setMuted: vi.fn(),
    load: vi.fn(async () => undefined),
  }
  return createPlayerSession({ queue, engine, edits: [ref(0)] })
}

describe('player session', () => {
  beforeEach(() => {
    invoke.mockReset()
    invoke.mockResolvedValue(null)
  })

  it('saves the queue with the position and volume', async () => {
    const s = session(3)
    await s.restore()
    await s.save()
    expect(invoke).toHaveBeenLastCalledWith('player:save-session', {
      version: 1,
      queue: { entries: 'the queue' },
      positionMs: 1234,
      volume: 0.5,
      muted: false,
    })
  })

  it('saves a queue too long to keep without its songs', async () => {
    const s = session(MAX_SAVED_QUEUE + 1)
    await s.restore()
    await s.save()
    expect(invoke).toHaveBeenLastCalledWith('player:save-session', expect.objectContaining({ queue: null }))
  })
})
