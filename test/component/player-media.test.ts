import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type { Song } from '@shared/api/models'
import { startMediaIntegration } from '@renderer/services/player/media-session'
import { usePlayerStore } from '@renderer/stores/player'
import { useSettingsStore } from '@renderer/stores/settings'
import { useOfflineStore } from '@renderer/stores/offline'
import { audios, lastAudio, resolved, song } from './player-fakes'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => undefined,
}))
vi.mock('@renderer/services/player/engine', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@renderer/services/player/engine')>()),
  createPlayerOutput: (await import('./player-fakes')).createFakeAudio,
}))

class FakeMetadata {
  constructor(readonly init: MediaMetadataInit) {}
}

const handlers = new Map<string, ((details: Record<string, unknown>) => void) | null>()
const session = {
  metadata: null as FakeMetadata | null,
  playbackState: 'none',
  setActionHandler: vi.fn((action: string, handler: ((details: Record<string, unknown>) => void) | null) =>
    handlers.set(action, handler),
  ),
  setPositionState: vi.fn(),
}

const catalogue = [1, 2].map((id) => song(id))

beforeEach(() => {
  setActivePinia(createPinia())
  audios.length = 0
  handlers.clear()
  session.metadata = null
  session.setPositionState.mockClear()
  vi.stubGlobal('MediaMetadata', FakeMetadata)
  Object.defineProperty(navigator, 'mediaSession', { value: session, configurable: true })
  invoke.mockReset()
  invoke.mockImplementation(async (channel: string, args: { id: number }) => {
    if (channel === 'settings:get') return DEFAULT_SETTINGS
    if (channel === 'player:resolve') return resolved(catalogue.find((s) => s.id === args.id) as Song)
    return undefined
  })
})
afterEach(() => vi.unstubAllGlobals())

describe('media integration: the OS media session', () => {
  it('sets metadata with artwork, the actions, and the position state on jumps only', async () => {
    const player = usePlayerStore()
    const stop = startMediaIntegration(player, { main: false })
    await player.playSongs(catalogue)
    await flushPromises()

    expect(session.metadata?.init).toEqual({
      title: 'Song 1',
      artist: 'Artist 1',
      album: 'Album 1',
      artwork: [{ src: 'http://127.0.0.1/cover/1.png', sizes: '512x512' }],
    })
    expect(session.playbackState).toBe('playing')
    expect([...handlers.keys()].sort()).toEqual(
      ['nexttrack', 'pause', 'play', 'previoustrack', 'seekbackward', 'seekforward', 'seekto', 'stop'].sort(),
    )
    expect(session.setPositionState).toHaveBeenLastCalledWith({ duration: 30, playbackRate: 1, position: 0 })

    const calls = session.setPositionState.mock.calls.length
    lastAudio().advance(3)
    lastAudio().advance(4)
    await flushPromises()
    expect(session.setPositionState.mock.calls.length).toBe(calls)

    handlers.get('seekto')!({ seekTime: 12 })
    await flushPromises()
    expect(lastAudio().currentTime).toBe(12)
    expect(session.setPositionState).toHaveBeenLastCalledWith({ duration: 30, playbackRate: 1, position: 12 })
    handlers.get('seekforward')!({})
    expect(lastAudio().currentTime).toBe(22)
    handlers.get('seekbackward')!({ seekOffset: 5 })
    expect(lastAudio().currentTime).toBe(17)
    handlers.get('pause')!({})
    await flushPromises()
    expect(session.playbackState).toBe('paused')
    handlers.get('nexttrack')!({})
    await flushPromises()
    expect(session.metadata?.init.title).toBe('Song 2')

    stop()
    expect(handlers.get('play')).toBeNull()
  })

  it('gives the OS the kept cover while offline as a blob: (Chromium refuses the app scheme), the data source’s again when back', async () => {
    const kept = `cadence-media://cover/?src=${encodeURIComponent('http://127.0.0.1/cover/1.png')}`
    const read = vi.fn(async () => new Response(new Blob(['png'], { type: 'image/png' })))
    vi.stubGlobal('fetch', read)
    let made = 0
    const revoked: string[] = []
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:cadence/${++made}`)
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => void revoked.push(url))
    const player = usePlayerStore()
    const offline = useOfflineStore()
    const stop = startMediaIntegration(player, { main: false, coverSrc: (url) => offline.coverSrc(url) })
    await player.playSongs(catalogue)
    await flushPromises()
    const artwork = () => session.metadata?.init.artwork
    expect(artwork()).toEqual([{ src: 'http://127.0.0.1/cover/1.png', sizes: '512x512' }])

    offline.state = { offline: true, since: 1, reason: 'fetch failed' }
    await flushPromises()
    expect(read).toHaveBeenCalledWith(kept)
    expect(artwork()).toEqual([{ src: 'blob:cadence/1', sizes: '512x512' }])
    expect(session.metadata?.init.title).toBe('Song 1')

    offline.state = { offline: false }
    await flushPromises()
    expect(artwork()).toEqual([{ src: 'http://127.0.0.1/cover/1.png', sizes: '512x512' }])
    expect(revoked).toEqual(['blob:cadence/1'])
    stop()
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })

  it('plays at the speed setting, changed while playing, and gives the OS that rate with song positions', async () => {
    const player = usePlayerStore()
    const stop = startMediaIntegration(player, { main: false })
    await player.playSongs(catalogue)
    await flushPromises()
    lastAudio().advance(6)
    useSettingsStore().settings = { ...DEFAULT_SETTINGS, speed: 1.5 }
    await flushPromises()
    expect(lastAudio().speed).toBe(1.5)
    expect(player.speed).toBe(1.5)
    expect(session.setPositionState).toHaveBeenLastCalledWith({
      duration: 30,
      playbackRate: 1.5,
      position: 6,
    })
    // Out of range (an old or hand-edited file): held within 0.5–2×.
    useSettingsStore().settings = { ...DEFAULT_SETTINGS, speed: 7 }
    await flushPromises()
    expect(lastAudio().speed).toBe(2)
    stop()
  })
})
