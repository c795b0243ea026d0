import { beforeEach, describe, expect, it, vi } from 'vitest'

const registered = new Map<string, () => void>()
const refuse = new Set<string>()
const unregistered: string[] = []
vi.mock('electron', () => ({
  globalShortcut: {
    register: (accelerator: string, callback: () => void) => {
      if (accelerator === 'MediaStop' && refuse.has('throw')) throw new Error('not supported')
      if (refuse.has(accelerator)) return false
      registered.set(accelerator, callback)
      return true
    },
    unregister: (accelerator: string) => unregistered.push(accelerator),
  },
}))

const { registerMediaKeys } = await import('@main/glue/shortcuts')

const logger = () => ({ debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() })

describe('registerMediaKeys', () => {
  beforeEach(() => {
    registered.clear()
    refuse.clear()
    unregistered.length = 0
  })

  it('turns media keys into player commands', () => {
    const commands: string[] = []
    registerMediaKeys((c) => commands.push(c), logger())
    expect([...registered.keys()]).toEqual([
      'MediaPlayPause',
      'MediaNextTrack',
      'MediaPreviousTrack',
      'MediaStop',
    ])
    for (const press of registered.values()) press()
    expect(commands).toEqual(['toggle', 'next', 'previous', 'stop'])
  })

  it('logs keys it cannot have and carries on', () => {
    refuse.add('MediaNextTrack')
    refuse.add('throw')
    const log = logger()
    const unregister = registerMediaKeys(() => {}, log)
    expect([...registered.keys()]).toEqual(['MediaPlayPause', 'MediaPreviousTrack'])
    expect(log.warn).toHaveBeenCalledTimes(2)
    unregister()
    expect(unregistered).toEqual(['MediaPlayPause', 'MediaPreviousTrack'])
  })
})
