import { describe, expect, it, vi } from 'vitest'
import { createCollectionService } from '@main/core/collection/service'
import { COLLECTIONS_KEY, legacyCollectionKey } from '@main/core/collection/stored'
import { parsePlaylistFile, toM3u8 } from '@main/core/collection/formats'
import { createMemoryStore } from '@main/core/ports'
import { silentLogger } from '@main/core/log'
import { createEventHub } from '@main/core/events'
import { CadenceError } from '@shared/errors'
import { songIdFromLink, songLink } from '@shared/links'
import type { CollectionSong } from '@shared/ipc/contract'

const song = (id: number, extra: Partial<CollectionSong> = {}): CollectionSong => ({
  id,
  name: `Song ${id}`,
  tns: [],
  artists: [{ id: 100 + id, name: `Artist ${id}` }],
  album: { id: 200 + id, name: `Album ${id}`, artists: [], cover: `http://x/${id}.png` },
  duration: 60_000 * id,
  ...extra,
})

function setup(initial: Record<string, unknown> = {}) {
  const store = createMemoryStore(initial)
  const events = createEventHub()
  const emitted: unknown[] = []
  events.subscribe((event, payload) => event === 'collection:changed' && emitted.push(payload))
  let source = 'builtin'
  let ids = 0
  const lookUpSong = vi.fn(async (id: string): Promise<unknown> => {
    if (id === '404') throw new Error('gone')
    return {
      ...song(Number(id)),
      meta: { url: 'http://x/media?sig=secret' },
      privilege: { playable: true, bitrates: [1] },
    }
  })
  const service = createCollectionService({
    store,
    events,
    log: silentLogger('collection'),
    activeSourceId: () => source,
    sources: () => [{ id: 'builtin', name: 'Built-in library', url: 'http://127.0.0.1:4000' }],
    lookUpSong,
    now: () => 1000 + ids,
    newId: () => `p${++ids}`,
  })
  return { store, service, emitted, lookUpSong, useSource: (id: string) => void (source = id) }
}

describe('collection service', () => {
  it('creates, renames and deletes playlists, saving each change and announcing the list', () => {
    const t = setup()
    const made = t.service.create('Road trip', [song(1), song(2), song(1)])
    expect(made).toMatchObject({
      id: 'p1',
      name: 'Road trip',
      size: 2,
      durationMs: 180_000,
      cover: 'http://x/1.png',
    })
    t.service.rename('p1', '  Long road ')
    expect(t.service.list().map((p) => p.name)).toEqual(['Long road'])
    const kept = [song(1, { sourceId: 'builtin' }), song(2, { sourceId: 'builtin' })]
    expect(t.store.snapshot()[COLLECTIONS_KEY]).toEqual([
      expect.objectContaining({ id: 'p1', name: 'Long road', songs: kept }),
    ])
    t.service.delete('p1')
    expect(t.service.list()).toEqual([])
    expect(t.emitted.map((list) => (list as unknown[]).length)).toEqual([1, 1, 0])
  })

  it('keeps one set of playlists whichever data source is active', () => {
    const t = setup()
    t.service.create('Mine here')
    t.useSource('other')
    t.service.create('Mine there')
    t.useSource('builtin')
    expect(t.service.list().map((p) => p.name)).toEqual(['Mine here', 'Mine there'])
  })

  it('adds songs once, removes them, and moves one to another place', () => {
    const t = setup()
    t.service.create('Mix', [song(1)])
    expect(t.service.add('p1', [song(1), song(2), song(3)])).toMatchObject({ added: 2, skipped: 1 })
    expect(t.service.move('p1', 0, 2).songs.map((s) => s.id)).toEqual([2, 3, 1])
    expect(t.service.move('p1', 2, 0).songs.map((s) => s.id)).toEqual([1, 2, 3])
    expect(t.service.remove('p1', ['2']).songs.map((s) => s.id)).toEqual([1, 3])
    expect(t.service.remove('p1', [{ id: 3, sourceId: 'other' }]).songs.map((s) => s.id)).toEqual([1, 3])
    expect(t.service.remove('p1', [{ id: 3, sourceId: 'builtin' }]).songs.map((s) => s.id)).toEqual([1])
    expect(() => t.service.move('p1', 0, 5)).toThrow(CadenceError)
    expect(() => t.service.get('nope')).toThrow('This playlist no longer exists')
  })

  it('reads the store once, and keeps the songs of a removed source', () => {
    const t = setup()
    t.service.create('Mine')
    const get = vi.spyOn(t.store, 'get')
    t.service.list()
    t.service.get('p1')
    t.service.add('p1', [song(1)])
    t.useSource('other')
    t.service.list()
    expect(get).not.toHaveBeenCalled()
    t.service.forget('builtin')
    expect(t.service.get('p1').songs).toEqual([song(1, { sourceId: 'builtin' })])
  })

  it('leaves out what it cannot read from the store instead of failing', () => {
    const t = setup({
      [legacyCollectionKey('builtin')]: [
        { id: 'a', name: 'Fine', createdAt: 1, updatedAt: 1, songs: [song(1), { name: 'no id' }] },
        { name: 'no id' },
        'junk',
      ],
    })
    expect(t.service.list()).toEqual([expect.objectContaining({ id: 'a', size: 1 })])
  })

  it('exports M3U8 with durations, titles and song links, and JSON that imports back the same', async () => {
    const t = setup()
    t.service.create('Night / Day', [song(1), song(2, { album: undefined, duration: undefined })])
    const m3u = t.service.export('p1', 'm3u8')
    expect(m3u.fileName).toBe('Night Day.m3u8')
    expect(m3u.text.split('\n')).toEqual([
      '#EXTM3U',
      '#PLAYLIST:Night / Day',
      '#EXTINF:60,Artist 1 - Song 1',
      '#EXTALB:Album 1',
      'http://127.0.0.1:4000/song/detail?id=1',
      '#EXTINF:-1,Artist 2 - Song 2',
      'http://127.0.0.1:4000/song/detail?id=2',
      '',
    ])
    const json = t.service.export('p1', 'json')
    const back = await t.service.import(json.text)
    expect(t.service.get(back.id).songs).toEqual(t.service.get('p1').songs)
    // The original is still there: the copy is told apart from it, as a file manager names a copy.
    expect(back.name).toBe('Night / Day (2)')
    expect((await t.service.import(json.text)).name).toBe('Night / Day (3)')
  })

  it('imports M3U8 by looking each song up, keeping no media URL, and the file line when it cannot', async () => {
    const t = setup()
    const text = [
      '#EXTM3U',
      '#EXTINF:200,Someone - Found',
      'http://192.168.1.9:4000/song/detail?id=7',
      '#EXTINF:30,Someone - Lost',
      'http://192.168.1.9:4000/song/detail?id=404',
      '/home/me/music/local.flac',
    ].join('\r\n')
    const made = await t.service.import(text, undefined, 'Party.m3u8')
    expect(made).toMatchObject({ name: 'Party', size: 2 })
    const songs = t.service.get(made.id).songs
    expect(songs[0]).toEqual({ ...song(7), privilege: { playable: true }, sourceId: 'builtin' })
    expect(songs[1]).toEqual({
      id: '404',
      name: 'Someone - Lost',
      tns: [],
      artists: [],
      duration: 30_000,
      sourceId: 'builtin',
    })
    expect(JSON.stringify(t.store.snapshot())).not.toContain('secret')
  })

  it('refuses a file with no songs of a data source', async () => {
    const t = setup()
    await expect(t.service.import('#EXTM3U\n/home/me/a.mp3\n')).rejects.toThrow('nothing to import')
    await expect(t.service.import('{"songs": 3}')).rejects.toThrow('no songs list')
  })
})

describe('playlist files', () => {
  it('reads song ids back from links at any address', () => {
    expect(songIdFromLink(songLink('http://h:1/api/', 'a b'))).toBe('a b')
    expect(songIdFromLink('https://music.example/song/detail?br=1&id=42')).toBe('42')
    expect(songIdFromLink('cadence:song/detail?id=9')).toBe('9')
    expect(songIdFromLink('http://h/playlist/detail?id=3')).toBeUndefined()
  })

  it('keeps the M3U8 name, and skips lines that name no song', () => {
    const parsed = parsePlaylistFile('#EXTM3U\n#PLAYLIST:X\nfile.mp3\nhttp://h/song/detail?id=1\n')
    expect(parsed).toMatchObject({ name: 'X', skipped: 1, entries: [{ id: '1' }] })
    expect(
      toM3u8(
        { id: 'p', name: 'a\nb', size: 0, durationMs: 0, createdAt: 0, updatedAt: 0, songs: [] },
        () => undefined,
      ),
    ).toBe('#EXTM3U\n#PLAYLIST:a b\n')
  })
})
