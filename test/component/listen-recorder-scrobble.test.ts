import { beforeEach, describe, expect, it, vi } from 'vitest'
import { nextTick } from 'vue'
import { createTestingPinia } from '@pinia/testing'
import { setActivePinia } from 'pinia'
import { useListenRecorder } from '@renderer/composables/listen-recorder'
import { usePlayerStore } from '@renderer/stores/player'
import { useQueueStore } from '@renderer/stores/queue'
import { useAuthStore } from '@renderer/stores/auth'
import { song } from './support'

const invoke = vi.fn(async (..._args: unknown[]): Promise<unknown> => undefined)
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => {},
}))

/**
 * The listen recorder's part in scrobbling: the song that starts is reported once
 * (`scrobble:now-playing`), and a listen of a song autoplay added carries `autoplay: true` (Last.fm's
 * `chosenByUser=0`). The player's readings are set as the player store exposes them.
 */
describe('listen recorder (scrobbling)', () => {
  let player: ReturnType<typeof usePlayerStore>
  let queue: ReturnType<typeof useQueueStore>

  beforeEach(() => {
    setActivePinia(createTestingPinia({ createSpy: vi.fn, stubActions: true }))
    invoke.mockClear()
    player = usePlayerStore()
    queue = useQueueStore()
    const auth = useAuthStore()
    // Getters are writable in a testing Pinia.
    ;(auth as unknown as { sourceId: string }).sourceId = 'builtin'
    useListenRecorder()
  })

  /** Plays `key` from the start for `seconds`, a reading each second. */
  async function play(key: string, id: number, seconds: number) {
    const writable = player as unknown as Record<string, unknown>
    writable.current = song(id, { duration: 40_000 })
    writable.currentKey = key
    writable.durationMs = 40_000
    writable.positionMs = 0
    writable.playing = true
    await nextTick()
    for (let s = 1; s <= seconds; s++) {
      writable.positionMs = s * 1000
      await nextTick()
    }
  }
  const calls = (channel: string) => invoke.mock.calls.filter(([c]) => c === channel).map(([, a]) => a)

  it('reports the song that starts once, and marks the listen of a song autoplay added', async () => {
    await play('entry-1', 1, 25)
    expect(calls('scrobble:now-playing')).toEqual([
      {
        sourceId: 'builtin',
        songId: '1',
        title: 'Song 1',
        artists: ['Artist 1'],
        album: 'Album 1',
        durationMs: 40_000,
      },
    ])
    expect(calls('history:record')).toHaveLength(1)
    expect(calls('history:record')[0]).not.toHaveProperty('autoplay')

    ;(queue as unknown as { autoplayKeys: ReadonlySet<string> }).autoplayKeys = new Set(['entry-2'])
    await play('entry-2', 2, 25)
    expect(calls('scrobble:now-playing').map((a) => (a as { songId: string }).songId)).toEqual(['1', '2'])
    expect(calls('history:record')[1]).toMatchObject({ songId: '2', autoplay: true })
  })
})
