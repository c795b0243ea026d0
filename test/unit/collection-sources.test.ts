import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '@main/core'
import { SOURCES_KEY } from '@main/core/sources/registry'
import type { CollectionAddResult, CollectionPlaylist, CollectionSummary } from '@shared/ipc/contract'
import type { CollectionSong } from '@shared/ipc/contract'
import { createTestCore, invokeOk } from '../support/test-core'

/** The user's own playlists are one set, whichever data source is active, holding songs of any source. */

const song = (id: number | string, extra: Partial<CollectionSong> = {}): CollectionSong => ({
  id,
  name: `Song ${id}`,
  tns: [],
  artists: [{ id: 1, name: 'Someone' }],
  ...extra,
})
const kept = (name: string, songs: CollectionSong[], id = name.toLowerCase()) => ({
  id,
  name,
  createdAt: 1,
  updatedAt: 1,
  songs,
})
const HOME = { id: 'home', name: 'Home server', url: 'http://192.168.1.9:4000' }

function core(initial: Record<string, unknown> = {}) {
  const store = createMemoryStore({ [SOURCES_KEY]: { v: 1, added: [HOME], activeId: 'builtin' }, ...initial })
  return { store, core: createTestCore({ store }) }
}

describe('your playlists across data sources (through the router)', () => {
  it('folds the playlists kept per source into one list once, each song stamped with its source', async () => {
    const t = core({
      'collection:builtin': [kept('Evening', [song(1), song(2)]), kept('Run', [song(3)])],
      'collection:home': [kept('Evening', [song(1)], 'evening-home'), kept('Quiet', [song(9)])],
    })
    const list = await invokeOk<CollectionSummary[]>(t.core, 'collection:list')
    // The active source's first; a name taken by another source's playlist is told apart by the source.
    expect(list.map((p) => [p.name, p.size])).toEqual([
      ['Evening', 2],
      ['Run', 1],
      ['Evening (Home server)', 1],
      ['Quiet', 1],
    ])
    const home = await invokeOk<CollectionPlaylist>(t.core, 'collection:get', { id: 'evening-home' })
    expect(home.songs).toEqual([song(1, { sourceId: 'home' })])
    const mine = await invokeOk<CollectionPlaylist>(t.core, 'collection:get', { id: 'evening' })
    expect(mine.songs.map((s) => s.sourceId)).toEqual(['builtin', 'builtin'])
    const saved = t.store.snapshot()
    expect(saved['collection:builtin']).toBeUndefined()
    expect(saved['collection:home']).toBeUndefined()
    expect(saved.collections).toHaveLength(4)
    // Read again (a restart): the folded list, not a second fold.
    const again = createTestCore({ store: t.store })
    expect((await invokeOk<CollectionSummary[]>(again, 'collection:list')).map((p) => p.name)).toEqual(
      list.map((p) => p.name),
    )
  })

  it('holds songs of two sources in one playlist: the same id at each is two songs', async () => {
    const t = core()
    const made = await invokeOk<CollectionSummary>(t.core, 'collection:create', { name: 'Both' })
    // A song that names no source is the active source's.
    const first = await invokeOk<CollectionAddResult>(t.core, 'collection:add', {
      id: made.id,
      songs: [song(1), song(1, { sourceId: 'home' })],
    })
    expect(first).toMatchObject({ added: 2, skipped: 0 })
    const again = await invokeOk<CollectionAddResult>(t.core, 'collection:add', {
      id: made.id,
      songs: [song(1, { sourceId: 'builtin' }), song(1, { sourceId: 'home' }), song(2, { sourceId: 'home' })],
    })
    expect(again).toMatchObject({ added: 1, skipped: 2 })
    await invokeOk(t.core, 'sources:activate', { id: 'home' })
    const playlist = await invokeOk<CollectionPlaylist>(t.core, 'collection:get', { id: made.id })
    expect(playlist.songs.map((s) => `${s.sourceId}:${s.id}`)).toEqual(['builtin:1', 'home:1', 'home:2'])
    const after = await invokeOk<CollectionPlaylist>(t.core, 'collection:remove', {
      id: made.id,
      songIds: [{ id: 1, sourceId: 'home' }],
    })
    expect(after.songs.map((s) => `${s.sourceId}:${s.id}`)).toEqual(['builtin:1', 'home:2'])

    const m3u = await invokeOk<{ text: string }>(t.core, 'collection:export', { id: made.id, format: 'm3u8' })
    expect(m3u.text).toContain('\nhttp://192.168.1.9:4000/song/detail?id=2\n')
    const json = await invokeOk<{ text: string }>(t.core, 'collection:export', {
      id: made.id,
      format: 'json',
    })
    expect((JSON.parse(json.text) as { songs: CollectionSong[] }).songs.map((s) => s.sourceId)).toEqual([
      'builtin',
      'home',
    ])
  })

  it('keeps the songs of a removed source listed', async () => {
    const t = core()
    const made = await invokeOk<CollectionSummary>(t.core, 'collection:create', {
      name: 'Kept',
      songs: [song(5, { sourceId: 'home' })],
    })
    await invokeOk(t.core, 'sources:remove', { id: 'home' })
    const playlist = await invokeOk<CollectionPlaylist>(t.core, 'collection:get', { id: made.id })
    expect(playlist.songs).toEqual([song(5, { sourceId: 'home' })])
  })

  it('refuses a song whose source id is not an id', async () => {
    const t = core()
    const made = await invokeOk<CollectionSummary>(t.core, 'collection:create', { name: 'X' })
    await expect(
      invokeOk(t.core, 'collection:add', { id: made.id, songs: [song(1, { sourceId: 'x'.repeat(201) })] }),
    ).rejects.toThrow('invalid-argument')
  })
})
