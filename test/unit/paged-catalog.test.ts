import { describe, expect, it } from 'vitest'
import type { Id } from '@shared/api/models'
import type { ApiClient, PlaylistWithRawSongs } from '@main/core/api/client'
import { createPagedCatalog } from '@main/core/catalog/paged'

/**
 * A raw song as a data source sends it; `touched` counts reads of its fields (validation reads them),
 * apart from `duration`, which the header's total time reads from every song without validating it.
 */
function rawSong(i: number, touched: Set<number>) {
  const song = {
    id: i + 1,
    name: `Song ${i}`,
    tns: [],
    artists: [
      { id: 1000 + (i % 7), name: i % 7 === 3 ? 'Nightingale' : `Artist ${i % 7}`, avatar: 'http://x/a.png' },
    ],
    album: {
      id: 5000,
      name: i === 4321 ? 'Rare Album' : 'Album',
      cover: 'http://x/c.png',
      artists: [{ id: 1, name: 'A' }],
    },
    duration: 1000 * i,
    privilege: { playable: i % 10 !== 9, bitrates: [128000, 320000], maxBitrate: 320000 },
    meta: { isFavorite: i === 2, url: 'http://x/song.mp3', lyric: { normal: '[00:01]la' } },
  }
  return new Proxy(song, {
    get(target, key, receiver) {
      if (key !== 'duration') touched.add(i)
      return Reflect.get(target, key, receiver)
    },
  })
}

/**
 * A fake client: a playlist of `total` songs; `paging` says whether the server honours offset/limit
 * (the reference server does, others send every song). Records every request.
 */
function fakeSource(total: number, options: { paging: boolean; size?: number; broken?: number[] }) {
  const touched = new Set<number>()
  const songs: unknown[] = Array.from({ length: total }, (_, i) =>
    options.broken?.includes(i) ? { id: null, name: 42 } : rawSong(i, touched),
  )
  const requests: Array<{ offset?: number; limit?: number }> = []
  const api = {
    playlistPage: async (id: Id, page: { offset?: number; limit?: number } = {}) => {
      requests.push(page)
      const slice = options.paging
        ? songs.slice(page.offset ?? 0, (page.offset ?? 0) + (page.limit ?? total))
        : songs
      return {
        id,
        name: 'Big',
        type: 'normal',
        size: options.size ?? total,
        songs: slice,
      } as unknown as PlaylistWithRawSongs
    },
    // The songs here are objects already (the real client keeps long lists' songs as JSON text).
    expandRaw: (raw: unknown) => raw,
  } as unknown as ApiClient
  const call = (<T>(run: (api: ApiClient, sourceId: string) => Promise<T>) => run(api, 'src')) as Parameters<
    typeof createPagedCatalog
  >[0]['call']
  return { touched, requests, catalog: createPagedCatalog({ call, firstRows: 100, serverPage: 1000 }) }
}

describe('paged catalogue', () => {
  it('opens with the header, the length and the first rows, validating only those', async () => {
    const source = fakeSource(10_000, { paging: true })
    const head = await source.catalog.open(7)
    expect(head).toMatchObject({ id: 7, name: 'Big', total: 10_000, size: 10_000 })
    expect(head).not.toHaveProperty('songs')
    expect(head.rows).toHaveLength(100)
    expect(head.rows[0]).toMatchObject({ id: 1, name: 'Song 0' })
    expect(source.requests).toEqual([{ offset: 0, limit: 1000 }])
    // Songs 100–999 arrived with the first server page but were not validated.
    expect([...source.touched].every((i) => i < 100)).toBe(true)
  })

  it('answers a range from the server pages that hold it, fetched once', async () => {
    const source = fakeSource(10_000, { paging: true })
    await source.catalog.open(7)
    const page = await source.catalog.rows({ id: 7, offset: 5_900, limit: 200 })
    expect(page.total).toBe(10_000)
    expect(page.offset).toBe(5_900)
    expect(page.rows.map((r) => r.name)).toEqual(Array.from({ length: 200 }, (_, i) => `Song ${5_900 + i}`))
    expect(source.requests.slice(1)).toEqual([
      { offset: 5_000, limit: 1000 },
      { offset: 6_000, limit: 1000 },
    ])
    await source.catalog.rows({ id: 7, offset: 5_950, limit: 100 })
    expect(source.requests).toHaveLength(3)
    // The end of the list: a short last range.
    const end = await source.catalog.rows({ id: 7, offset: 9_990, limit: 200 })
    expect(end.rows).toHaveLength(10)
  })

  it('works with a server that sends every song at once: one request, validation still per range', async () => {
    const source = fakeSource(3_000, { paging: false })
    const head = await source.catalog.open(7)
    expect(head.total).toBe(3_000)
    const page = await source.catalog.rows({ id: 7, offset: 2_500, limit: 50 })
    expect(page.rows[0].name).toBe('Song 2500')
    expect(source.requests).toHaveLength(1)
    expect([...source.touched].every((i) => i < 100 || (i >= 2_500 && i < 2_550))).toBe(true)
  })

  it('gives the total time when it has the whole list, and none while pages are missing', async () => {
    // Song i lasts i seconds: 0 + 1 + … + 2,999 s.
    const whole = await fakeSource(3_000, { paging: false }).catalog.open(7)
    expect(whole.duration).toBe(1000 * ((2_999 * 3_000) / 2))
    const short = await fakeSource(10, { paging: true }).catalog.open(7)
    expect(short.duration).toBe(45_000)
    const paged = await fakeSource(10_000, { paging: true }).catalog.open(7)
    expect(paged).not.toHaveProperty('duration')
  })

  it('sends rows with only what rows show', async () => {
    const source = fakeSource(10, { paging: true })
    const [, , row] = (await source.catalog.open(7)).rows
    expect(row.artists).toStrictEqual([{ id: 1002, name: 'Artist 2' }])
    expect(row.album).toStrictEqual({ id: 5000, name: 'Album', cover: 'http://x/c.png' })
    expect(row.privilege).toMatchObject({ playable: true, bitrates: [128000, 320000], maxBitrate: 320000 })
    expect(row.meta).toStrictEqual({ isFavorite: true })
    expect(Object.keys(row).sort()).toEqual([
      'album',
      'artists',
      'duration',
      'id',
      'meta',
      'name',
      'privilege',
      'tns',
    ])
  })

  it('keeps a broken song as an unplayable row, so indices never shift', async () => {
    const source = fakeSource(10, { paging: true, broken: [4] })
    const { rows } = await source.catalog.open(7)
    expect(rows).toHaveLength(10)
    expect(rows[4].privilege?.playable).toBe(false)
    expect(rows[5].name).toBe('Song 5')
  })

  it('searches within the whole list: name, artists and album, any case, in the list order', async () => {
    const source = fakeSource(10_000, { paging: true })
    await source.catalog.open(7)
    const byAlbum = await source.catalog.rows({ id: 7, offset: 0, limit: 50, query: '  rare ALBUM ' })
    expect(byAlbum).toMatchObject({ total: 1, offset: 0 })
    expect(byAlbum.rows.map((r) => r.name)).toEqual(['Song 4321'])
    // Every server page was fetched for it.
    expect(source.requests).toHaveLength(10)
    const byArtist = await source.catalog.rows({ id: 7, offset: 10, limit: 5, query: 'nightingale' })
    expect(byArtist.total).toBe(Math.ceil((10_000 - 3) / 7))
    expect(byArtist.rows.map((r) => r.name)).toEqual([73, 80, 87, 94, 101].map((i) => `Song ${i}`))
    expect(source.requests).toHaveLength(10)
  })

  it('sorts the whole list by title, artist or duration, either way, and a search within it too', async () => {
    const source = fakeSource(3_000, { paging: true })
    await source.catalog.open(7)
    const longest = await source.catalog.rows({
      id: 7,
      offset: 0,
      limit: 3,
      sort: { by: 'duration', descending: true },
    })
    expect(longest.total).toBe(3_000)
    expect(longest.rows.map((r) => r.name)).toEqual(['Song 2999', 'Song 2998', 'Song 2997'])
    // Titles as people read them: "Song 2" before "Song 10".
    const byTitle = await source.catalog.rows({ id: 7, offset: 0, limit: 4, sort: { by: 'title' } })
    expect(byTitle.rows.map((r) => r.name)).toEqual(['Song 0', 'Song 1', 'Song 2', 'Song 3'])
    // Ties keep the playlist's order: Artist 0's songs first, in list order.
    const byArtist = await source.catalog.rows({ id: 7, offset: 0, limit: 3, sort: { by: 'artist' } })
    expect(byArtist.rows.map((r) => r.name)).toEqual(['Song 0', 'Song 7', 'Song 14'])
    const matches = await source.catalog.rows({
      id: 7,
      offset: 0,
      limit: 2,
      query: 'nightingale',
      sort: { by: 'duration', descending: true },
    })
    expect(matches.rows.map((r) => r.name)).toEqual(['Song 2999', 'Song 2992'])
    // The order of the list itself is unchanged.
    const plain = await source.catalog.rows({ id: 7, offset: 0, limit: 2 })
    expect(plain.rows.map((r) => r.name)).toEqual(['Song 0', 'Song 1'])
  })

  it('opens a list it does not hold when a range is asked first', async () => {
    const source = fakeSource(2_000, { paging: true })
    const page = await source.catalog.rows({ id: 9, offset: 1_500, limit: 10 })
    expect(page).toMatchObject({ total: 2_000, offset: 1_500 })
    expect(page.rows[0].name).toBe('Song 1500')
  })

  it('ends the list where the songs end when the server overstated its size', async () => {
    const source = fakeSource(1_500, { paging: true, size: 1_800 })
    await source.catalog.open(7)
    const page = await source.catalog.rows({ id: 7, offset: 1_400, limit: 200 })
    expect(page.total).toBe(1_500)
    expect(page.rows).toHaveLength(100)
  })
})
