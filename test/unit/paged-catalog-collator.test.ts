import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ApiClient, PlaylistWithRawSongs } from '@main/core/api/client'
import type { createPagedCatalog as CreatePagedCatalog } from '@main/core/catalog/paged'

const song = (i: number) => ({
  id: i + 1,
  name: `Song ${10 - i}`,
  tns: [],
  artists: [{ id: 1, name: 'Artist' }],
  album: { id: 2, name: 'Album', artists: [] },
  duration: 1000,
  privilege: { playable: true, bitrates: [128000], maxBitrate: 128000 },
})

afterEach(() => vi.restoreAllMocks())

describe('paged catalogue: the collator', () => {
  it('is made at the first sort by title, not when main loads the catalogue or opens a list', async () => {
    const RealCollator = Intl.Collator
    const made = vi.spyOn(Intl, 'Collator').mockImplementation(function (
      ...args: ConstructorParameters<typeof Intl.Collator>
    ) {
      return new RealCollator(...args)
    } as unknown as typeof Intl.Collator)
    vi.resetModules()
    const { createPagedCatalog } = (await import('@main/core/catalog/paged')) as {
      createPagedCatalog: typeof CreatePagedCatalog
    }
    const songs = Array.from({ length: 11 }, (_, i) => song(i))
    const api = {
      playlistPage: async (id: number) =>
        ({ id, name: 'List', type: 'normal', size: songs.length, songs }) as unknown as PlaylistWithRawSongs,
      expandRaw: (raw: unknown) => raw,
    } as unknown as ApiClient
    const catalog = createPagedCatalog({
      call: (<T>(run: (client: ApiClient, sourceId: string) => Promise<T>) => run(api, 'src')) as Parameters<
        typeof CreatePagedCatalog
      >[0]['call'],
      firstRows: 100,
      serverPage: 1000,
    })
    await catalog.open(7)
    expect(made).not.toHaveBeenCalled()

    const byTitle = await catalog.rows({ id: 7, offset: 0, limit: 3, sort: { by: 'title' } })
    // As people read titles: "Song 0", "Song 1", "Song 2" before "Song 10".
    expect(byTitle.rows.map((row) => row.name)).toEqual(['Song 0', 'Song 1', 'Song 2'])
    expect(made).toHaveBeenCalledTimes(1)
    await catalog.rows({ id: 7, offset: 0, limit: 3, sort: { by: 'artist', descending: true } })
    expect(made).toHaveBeenCalledTimes(1)
  })
})
