import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { Song } from '@shared/api/models'
import type { AuthState, PlayerSession } from '@shared/ipc/contract'
import { DEFAULT_SETTINGS } from '@shared/settings'
import { useAuthStore } from '@renderer/stores/auth'
import { useLikesStore } from '@renderer/stores/likes'
import { usePlayerStore } from '@renderer/stores/player'
import { sourceOf, useQueueStore } from '@renderer/stores/queue'
import { createAppI18n } from '@renderer/i18n'
import PlayerQueuePanel from '@renderer/components/player/PlayerQueuePanel.vue'
import PlayerNotice from '@renderer/components/player/PlayerNotice.vue'
import { useListenRecorder } from '@renderer/composables/listen-recorder'
import { listenSong } from '@renderer/stores/history'
import { effectScope } from 'vue'
import { lastAudio, resolved, song } from './player-fakes'

enableAutoUnmount(afterEach)

/**
 * Issue 36, one queue across sources, in the renderer: each queue entry carries its song's data source
 * (stamped as it is added from a view of the active source), keeps it across a switch and a restore, and
 * is resolved and liked on that source.
 */

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => undefined,
}))
vi.mock('@renderer/services/player/engine', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@renderer/services/player/engine')>()),
  createPlayerOutput: (await import('./player-fakes')).createFakeAudio,
}))

let session: PlayerSession | null
const calls = (channel: string) =>
  invoke.mock.calls.filter(([name]) => name === channel).map(([, args]) => args as Record<string, unknown>)

function activate(sourceId: string) {
  useAuthStore().state = {
    sourceId,
    status: 'signed-in',
    user: { id: 1, name: 'Owner' },
    storage: { mode: 'memory' },
  } as unknown as AuthState
}

beforeEach(() => {
  setActivePinia(createPinia())
  session = null
  invoke.mockReset()
  invoke.mockImplementation(async (channel: string, args: { id: number; like?: boolean }) => {
    switch (channel) {
      case 'settings:get':
        return DEFAULT_SETTINGS
      case 'sources:list':
        return {
          activeId: 'builtin',
          sources: [
            {
              id: 'builtin',
              name: 'Built-in library',
              url: 'http://127.0.0.1:1',
              builtin: true,
              insecure: false,
            },
            { id: 'src-b', name: 'Quirk server', url: 'http://127.0.0.1:2', builtin: false, insecure: false },
          ],
        }
      case 'player:resolve':
        return resolved(song(args.id))
      case 'player:load-session':
        return session
      case 'catalog:like':
        return { id: args.id, like: args.like }
      default:
        return undefined
    }
  })
})

describe('the queue across data sources', () => {
  it("stamps each added song with the active source, keeps a song's own, and says when sources mix", () => {
    const q = useQueueStore()
    activate('builtin')
    q.replace([song(1), song(2)])
    expect(q.mixedSources).toBe(false)
    activate('src-b')
    q.add(song(3))
    q.playNext({ ...song(4), sourceId: 'src-c' } as Song)
    expect(q.entries.map((entry) => [entry.item.id, sourceOf(entry.item)])).toEqual([
      [1, 'builtin'],
      [4, 'src-c'],
      [2, 'builtin'],
      [3, 'src-b'],
    ])
    expect(q.mixedSources).toBe(true)
    // The snapshot keeps each entry's source, and a restore brings it back.
    const saved = JSON.parse(JSON.stringify(q.snapshot())) as unknown
    q.clear()
    q.restore(saved)
    expect(q.entries.map((entry) => sourceOf(entry.item))).toEqual(['builtin', 'src-c', 'builtin', 'src-b'])
  })

  it('resolves each song from its own source and keeps the queue when another source becomes active', async () => {
    activate('builtin')
    const player = usePlayerStore()
    await player.init()
    await player.playSongs([song(1)])
    activate('src-b')
    player.addToQueue(song(2))
    await flushPromises()
    expect(player.entries).toHaveLength(2)
    await player.next()
    await flushPromises()
    activate('builtin')
    await flushPromises()
    expect(player.entries.map((entry) => sourceOf(entry.item))).toEqual(['builtin', 'src-b'])
    const asked = calls('player:resolve').map((args) => [args.id, args.sourceId])
    expect(asked).toContainEqual([1, 'builtin'])
    expect(asked).toContainEqual([2, 'src-b'])
    expect(player.current?.id).toBe(2)
    // The heart of a song of another source goes to that source.
    await player.setLiked(true)
    expect(calls('catalog:like').at(-1)).toEqual({ id: 2, like: true, sourceId: 'src-b' })
    expect(useLikesStore().isLiked(player.current!)).toBe(true)
  })

  it('restores a saved session with every entry on its own source', async () => {
    session = {
      version: 1,
      queue: {
        entries: [
          { key: 'e1', item: { ...song(1), sourceId: 'builtin' } },
          { key: 'e2', item: { ...song(2), sourceId: 'src-b' } },
        ],
        current: 1,
      },
      positionMs: 0,
      volume: 1,
      muted: false,
    }
    activate('builtin')
    const player = usePlayerStore()
    await player.init()
    await flushPromises()
    expect(player.entries.map((entry) => sourceOf(entry.item))).toEqual(['builtin', 'src-b'])
    expect(calls('player:resolve').at(-1)).toMatchObject({ id: 2, sourceId: 'src-b' })
  })
})

describe('where a queued song comes from', () => {
  it("names each song's source in the queue while the queue mixes sources, and not otherwise", async () => {
    activate('builtin')
    const q = useQueueStore()
    q.replace([song(1), song(2)])
    const wrapper = mount(PlayerQueuePanel, { global: { plugins: [createAppI18n()] } })
    await flushPromises()
    expect(wrapper.findAll('[data-testid="queue-item"]')).toHaveLength(2)
    expect(wrapper.findAll('[data-testid="queue-source"]')).toHaveLength(0)

    q.add({ ...song(3), sourceId: 'src-b' } as Song)
    q.add({ ...song(4), sourceId: 'gone' } as Song)
    await vi.waitFor(() =>
      expect(wrapper.findAll('[data-testid="queue-source"]').map((label) => label.text())).toEqual([
        'Built-in library',
        'Built-in library',
        'Quirk server',
        'a removed data source',
      ]),
    )
    q.remove(q.entries[3]!.key)
    q.remove(q.entries[2]!.key)
    await vi.waitFor(() => expect(wrapper.findAll('[data-testid="queue-source"]')).toHaveLength(0))
  })
})

describe('history with a mixed queue', () => {
  it("records a listen under the song's own source, and plays a listen again from that source", async () => {
    activate('builtin')
    const player = usePlayerStore()
    await player.init()
    const scope = effectScope()
    scope.run(() => useListenRecorder())
    await player.playSongs([{ ...song(2), sourceId: 'src-b' } as Song])
    await flushPromises()
    for (let s = 1; s <= 20; s++) {
      lastAudio().advance(s)
      await flushPromises()
    }
    scope.stop()
    const [listen] = calls('history:record')
    expect(listen).toMatchObject({ sourceId: 'src-b', songId: '2' })

    await player.playNow(
      listenSong({ ...(listen as never as Parameters<typeof listenSong>[0]), id: 1 } as Parameters<
        typeof listenSong
      >[0]),
    )
    await flushPromises()
    const entry = player.entries.find((e) => e.key === player.currentKey)!
    expect([String(entry.item.id), sourceOf(entry.item)]).toEqual(['2', 'src-b'])
    expect(calls('player:resolve').every((args) => args.sourceId === 'src-b')).toBe(true)
  })
})

describe('songs of a source that cannot be reached', () => {
  it('are skipped with the reason in one notice, and stay in the queue', async () => {
    const reason = 'Quirk server cannot be reached'
    invoke.mockImplementation(async (channel: string, args: { id: number; sourceId?: string }) => {
      if (channel === 'settings:get') return DEFAULT_SETTINGS
      if (channel === 'sources:list') return { activeId: 'builtin', sources: [] }
      if (channel !== 'player:resolve') return undefined
      if (args.sourceId === 'src-b')
        return { ...song(args.id), privilege: { playable: false, reason, bitrates: [] } }
      return resolved(song(args.id))
    })
    activate('builtin')
    const player = usePlayerStore()
    await player.init()
    const away = [1, 2, 3].map((id) => ({ ...song(id), sourceId: 'src-b' }) as Song)
    await player.playSongs([...away, song(4)])
    await flushPromises()
    await vi.waitFor(() => expect(player.current?.id).toBe(4))
    expect(player.entries).toHaveLength(4)
    const wrapper = mount(PlayerNotice, { global: { plugins: [createAppI18n()] } })
    expect(wrapper.get('[data-testid="player-notice"]').text()).toContain(`Skipped 3 songs: ${reason}`)
  })
})
