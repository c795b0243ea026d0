import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { Song } from '@shared/api/models'
import { CadenceError } from '@shared/errors'
import type { PlayerSession } from '@shared/ipc/contract'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type { Settings } from '@shared/settings'
import { SAVE_INTERVAL_MS, URL_MAX_AGE_MS, usePlayerStore } from '@renderer/stores/player'
import { startMediaIntegration } from '@renderer/services/player/media-session'
import { audios, lastAudio, resolved, song } from './player-fakes'

const invoke = vi.fn()
const listeners = new Map<string, (payload: unknown) => void>()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: (event: string, listener: (payload: unknown) => void) => {
    listeners.set(event, listener)
    return () => listeners.delete(event)
  },
}))
vi.mock('@renderer/services/player/engine', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@renderer/services/player/engine')>()),
  createPlayerOutput: (await import('./player-fakes')).createFakeAudio,
}))

let settings: Settings
let session: PlayerSession | null
let resolve: (args: { id: number; br?: number }) => Song | Promise<Song>
const catalogue = new Map<number, Song>()

function resolveCalls(): Array<{ id: number; br?: number }> {
  return invoke.mock.calls.filter(([channel]) => channel === 'player:resolve').map(([, args]) => args)
}
function saves(): PlayerSession[] {
  return invoke.mock.calls.filter(([channel]) => channel === 'player:save-session').map(([, args]) => args)
}

beforeEach(() => {
  setActivePinia(createPinia())
  audios.length = 0
  listeners.clear()
  settings = { ...DEFAULT_SETTINGS }
  session = null
  catalogue.clear()
  for (let id = 1; id <= 5; id++) catalogue.set(id, song(id))
  resolve = ({ id }) => resolved(catalogue.get(id)!)
  invoke.mockReset()
  invoke.mockImplementation(async (channel: string, args: never) => {
    switch (channel) {
      case 'settings:get':
        return settings
      case 'player:resolve':
        return resolve(args)
      case 'player:load-session':
        return session
      case 'catalog:like':
        return { id: (args as { id: number }).id, like: (args as { like: boolean }).like }
      default:
        return undefined
    }
  })
})
const stops: Array<() => void> = []
afterEach(() => {
  vi.useRealTimers()
  for (const stop of stops.splice(0)) stop()
})

const songs = () => [1, 2, 3, 4, 5].map((id) => catalogue.get(id)!)

describe('player store', () => {
  it('resolves the song with the bitrate chosen from its privilege and the quality setting, then plays it', async () => {
    settings = { ...DEFAULT_SETTINGS, quality: 'higher' }
    const player = usePlayerStore()
    await player.playSongs(songs(), 1)
    await flushPromises()
    expect(resolveCalls()[0]).toEqual({ id: 2, br: 192000 })
    expect(lastAudio().src).toMatch(/\/media\/2\.wav/)
    expect(player.playing).toBe(true)
    expect(player.current?.name).toBe('Song 2')
  })

  it('resolves the next song ahead of time, so skipping needs no new request', async () => {
    const player = usePlayerStore()
    await player.playSongs(songs())
    await flushPromises()
    expect(resolveCalls().map((call) => call.id)).toEqual([1, 2])
    await player.next()
    await flushPromises()
    expect(player.current?.id).toBe(2)
    expect(lastAudio().src).toMatch(/\/media\/2\.wav/)
    expect(resolveCalls().map((call) => call.id)).toEqual([1, 2, 3])
  })

  it('resolves a prefetched URL again when it has grown old', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const player = usePlayerStore()
    await player.playSongs(songs())
    await flushPromises()
    vi.setSystemTime(Date.now() + URL_MAX_AGE_MS + 1000)
    await player.next()
    await flushPromises()
    expect(resolveCalls().filter((call) => call.id === 2)).toHaveLength(2)
  })

  it('skips a song that cannot be played and says why', async () => {
    catalogue.set(
      2,
      song(2, { privilege: { playable: false, reason: 'Not available in your region', bitrates: [] } }),
    )
    const player = usePlayerStore()
    await player.playSongs(songs(), 1)
    await flushPromises()
    expect(player.current?.id).toBe(3)
    expect(player.playing).toBe(true)
    expect(player.notice).toEqual({
      type: 'skipped',
      song: 'Song 2',
      reason: 'Not available in your region',
      cause: 'unplayable',
    })
    expect(resolveCalls().map((call) => call.id)).not.toContain(2)
  })

  it('skips a song the data source gives no URL for', async () => {
    resolve = ({ id }) => (id === 1 ? song(1, { meta: {} }) : resolved(catalogue.get(id)!))
    const player = usePlayerStore()
    await player.playSongs(songs())
    await flushPromises()
    expect(player.current?.id).toBe(2)
    expect(player.notice).toMatchObject({ type: 'skipped', song: 'Song 1', cause: 'no-url' })
  })

  it('stops instead of looping when every song is unplayable', async () => {
    const locked = [1, 2, 3].map((id) => song(id, { privilege: { playable: false, bitrates: [] } }))
    const player = usePlayerStore()
    await player.playSongs(locked)
    await flushPromises()
    expect(player.playing).toBe(false)
    expect(player.queue).toHaveLength(3)
    expect(resolveCalls()).toHaveLength(0)
  })

  it('recovers from an expired URL: resolves again and resumes at the same position', async () => {
    const player = usePlayerStore()
    await player.playSongs(songs())
    await flushPromises()
    const audio = lastAudio()
    const firstUrl = audio.src
    audio.advance(12.5)
    audio.emit('error')
    await flushPromises()
    expect(resolveCalls().filter((call) => call.id === 1)).toHaveLength(2)
    expect(audio.src).not.toBe(firstUrl)
    expect(audio.currentTime).toBe(12.5)
    expect(player.current?.id).toBe(1)
    expect(player.playing).toBe(true)
    expect(player.notice).toBeNull()
  })

  it('recovers at the position of a seek made while paused, and stays paused', async () => {
    const player = usePlayerStore()
    await player.playSongs(songs())
    await flushPromises()
    player.pause()
    player.seek(20_000)
    const audio = lastAudio()
    audio.play.mockClear()
    audio.emit('error')
    await flushPromises()
    expect(audio.currentTime).toBe(20)
    expect(audio.play).not.toHaveBeenCalled()
    expect(player.current?.id).toBe(1)
  })

  it('skips when the URL fails again after resolving it once more', async () => {
    const player = usePlayerStore()
    await player.playSongs(songs())
    await flushPromises()
    lastAudio().emit('error')
    await flushPromises()
    lastAudio().emit('error')
    await flushPromises()
    expect(player.current?.id).toBe(2)
    expect(player.notice).toMatchObject({ type: 'skipped', song: 'Song 1', cause: 'load-failed' })
  })

  it('stops with a clear message and keeps the queue when the data source is down', async () => {
    const player = usePlayerStore()
    await player.playSongs(songs())
    await flushPromises()
    resolve = () => {
      throw new CadenceError({
        name: 'DataSourceError',
        kind: 'network',
        message: 'Cannot reach the data source',
      })
    }
    await player.playEntry(player.entries[3].key)
    await flushPromises()
    expect(player.playing).toBe(false)
    expect(player.status).toBe('error')
    expect(player.error?.kind).toBe('network')
    expect(player.notice).toMatchObject({ type: 'stopped', message: 'Cannot reach the data source' })
    expect(player.queue).toHaveLength(5)
    expect(player.current?.id).toBe(4)
    // Back online: play tries the same song again.
    resolve = ({ id }) => resolved(catalogue.get(id)!)
    await player.play()
    await flushPromises()
    expect(player.playing).toBe(true)
    expect(player.current?.id).toBe(4)
  })

  it('stops rather than skips when a failed URL cannot be resolved again because the source is down', async () => {
    const player = usePlayerStore()
    await player.playSongs(songs())
    await flushPromises()
    resolve = () => {
      throw new CadenceError({
        name: 'DataSourceError',
        kind: 'timeout',
        message: 'The data source timed out',
      })
    }
    lastAudio().advance(9)
    lastAudio().emit('error')
    await flushPromises()
    expect(player.current?.id).toBe(1)
    expect(player.playing).toBe(false)
    expect(player.positionMs).toBe(9000)
    expect(player.notice).toMatchObject({ type: 'stopped', message: 'The data source timed out' })
  })

  it('previous restarts the song after 3 s, and goes back a song before that', async () => {
    const player = usePlayerStore()
    await player.playSongs(songs(), 2)
    await flushPromises()
    lastAudio().advance(5)
    await player.previous()
    expect(player.current?.id).toBe(3)
    expect(lastAudio().currentTime).toBe(0)
    lastAudio().advance(2)
    await player.previous()
    await flushPromises()
    expect(player.current?.id).toBe(2)
  })

  it('plays on at the end of a song, repeats one song, and stops at the end with repeat off', async () => {
    const player = usePlayerStore()
    await player.playSongs(songs().slice(0, 2))
    await flushPromises()
    lastAudio().emit('ended')
    await flushPromises()
    expect(player.current?.id).toBe(2)
    player.setRepeat('one')
    lastAudio().advance(29)
    lastAudio().emit('ended')
    await flushPromises()
    expect(player.current?.id).toBe(2)
    expect(lastAudio().currentTime).toBe(0)
    player.setRepeat('off')
    lastAudio().pause()
    lastAudio().emit('ended')
    await flushPromises()
    expect(player.current?.id).toBe(2)
    expect(player.playing).toBe(false)
  })

  it('edits the queue: play next, add, move, remove, clear', async () => {
    const player = usePlayerStore()
    await player.playSongs(songs().slice(0, 2))
    await flushPromises()
    player.addToQueue(catalogue.get(4)!)
    player.playNext(catalogue.get(3)!)
    expect(player.queue.map((s) => s.id)).toEqual([1, 3, 2, 4])
    player.move(3, 1)
    expect(player.queue.map((s) => s.id)).toEqual([1, 4, 3, 2])
    player.remove(player.entries[2].key)
    expect(player.queue.map((s) => s.id)).toEqual([1, 4, 2])
    expect(player.current?.id).toBe(1)
    player.clear()
    expect(player.queue).toEqual([])
    expect(player.current).toBeNull()
    expect(player.playing).toBe(false)
  })

  it('shuffles every song once and restores the order when shuffle goes off', async () => {
    const player = usePlayerStore()
    await player.playSongs(songs(), 2)
    await flushPromises()
    player.setShuffle(true)
    expect(player.current?.id).toBe(3)
    expect([...player.queue.map((s) => s.id)].sort()).toEqual([1, 2, 3, 4, 5])
    player.setShuffle(false)
    expect(player.queue.map((s) => s.id)).toEqual([1, 2, 3, 4, 5])
    expect(player.current?.id).toBe(3)
  })

  it('saves the session while playing (at least every SAVE_INTERVAL_MS) and on pause', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const player = usePlayerStore()
    await player.init()
    await player.playSongs(songs(), 1)
    await flushPromises()
    const before = saves().length
    vi.setSystemTime(Date.now() + SAVE_INTERVAL_MS)
    lastAudio().advance(6)
    expect(saves().length).toBe(before + 1)
    expect(saves().at(-1)).toMatchObject({ version: 1, positionMs: 6000, volume: 1, muted: false })
    lastAudio().advance(7)
    player.pause()
    const last = saves().at(-1)!
    expect(last.positionMs).toBe(7000)
    expect((last.queue as { current: number }).current).toBe(1)
  })

  it('restores the saved session on start, paused at the same position', async () => {
    const first = usePlayerStore()
    await first.init()
    await first.playSongs(songs(), 3)
    await flushPromises()
    first.setVolume(0.4)
    first.setRepeat('all')
    lastAudio().advance(14)
    first.pause()
    session = JSON.parse(JSON.stringify(saves().at(-1)))

    setActivePinia(createPinia())
    const player = usePlayerStore()
    await player.init()
    await flushPromises()
    const audio = lastAudio()
    expect(player.queue.map((s) => s.id)).toEqual([1, 2, 3, 4, 5])
    expect(player.current?.id).toBe(4)
    expect(player.positionMs).toBe(14_000)
    expect(audio.currentTime).toBe(14)
    expect(audio.play).not.toHaveBeenCalled()
    expect(player.playing).toBe(false)
    expect(player.volume).toBe(0.4)
    expect(audio.volume).toBe(0.4)
    expect(player.repeat).toBe('all')
    await player.toggle()
    expect(player.playing).toBe(true)
  })

  it('obeys commands from main (tray, media keys)', async () => {
    const player = usePlayerStore()
    await player.init()
    stops.push(startMediaIntegration(player, { mediaSession: undefined }))
    await player.playSongs(songs())
    await flushPromises()
    const command = listeners.get('player:command')!
    command({ command: 'pause' })
    expect(player.playing).toBe(false)
    command({ command: 'play' })
    await flushPromises()
    expect(player.playing).toBe(true)
    command({ command: 'next' })
    await flushPromises()
    expect(player.current?.id).toBe(2)
    command({ command: 'like' })
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('catalog:like', { id: 2, like: true })
    expect(player.liked).toBe(true)
  })

  it('reports state changes to main, not every clock tick', async () => {
    const player = usePlayerStore()
    await player.init()
    stops.push(startMediaIntegration(player, { mediaSession: undefined }))
    await player.playSongs(songs())
    const reports = () => invoke.mock.calls.filter(([channel]) => channel === 'player:report-state')
    // The song, and where its clock stands (the taskbar's progress moves on from it in main).
    await vi.waitFor(() =>
      expect(reports().at(-1)![1]).toEqual({
        playing: true,
        song: { id: 1, name: 'Song 1', artists: 'Artist 1', liked: false },
        progress: { positionMs: 0, durationMs: 30_000, speed: 1 },
      }),
    )
    const count = reports().length
    lastAudio().advance(1)
    lastAudio().advance(2)
    await new Promise((resolve) => setTimeout(resolve, 120))
    expect(reports()).toHaveLength(count)
    player.pause()
    await vi.waitFor(() => expect(reports().at(-1)![1]).toMatchObject({ playing: false }))
  })

  it('rolls a like back and says so when main refuses it', async () => {
    const player = usePlayerStore()
    await player.playSongs(songs())
    await flushPromises()
    invoke.mockRejectedValueOnce(new CadenceError({ kind: 'unauthorized', message: 'Please sign in' }))
    await player.toggleLike()
    expect(player.liked).toBe(false)
    expect(player.notice).toMatchObject({ type: 'failed', message: 'Please sign in' })
  })
})
