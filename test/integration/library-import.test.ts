import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/db/open'
import { importLibrary } from '../../server/library/import'
import { startDataSource } from '../../server/index'
import { data, type Json } from '../conformance/helpers'
import { makeTrack, retag } from '../support/library-files'
import { OWNER_PASSPHRASE } from '../support/phone'

/** The importer's grouping, ordering, naming and identity bugs of issue 36, on files made by ffmpeg. */
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

function scratch(): { root: string; music: string; dataDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'cadence-library-import-'))
  dirs.push(root)
  const music = join(root, 'music')
  mkdirSync(music)
  return { root, music, dataDir: join(root, 'data') }
}

async function withServer<T>(music: string | string[], dataDir: string, fn: (url: string) => Promise<T>) {
  const server = await startDataSource({
    ownerPassphrase: OWNER_PASSPHRASE,
    dataDir,
    library: music,
    demo: 0,
  })
  try {
    return await fn(server.url)
  } finally {
    await server.close()
  }
}

const albumsNamed = async (url: string, name: string) =>
  ((await data(url, `/search?keywords=${encodeURIComponent(name)}`)).albums as Json[]).filter(
    (a) => a.name === name,
  )

describe('library import: albums', () => {
  it('keeps an album whose first track has a "feat." artist together, under its main artist', async () => {
    const { music, dataDir } = scratch()
    const dir = join(music, 'Guest Album')
    mkdirSync(dir)
    // "01" sorts first: the first track read is the one with the guest.
    makeTrack(
      join(dir, '01 Opening.mp3'),
      { title: 'Opening', artist: 'Main Singer feat. Guest', album: 'Guest Album', track: 1 },
      1,
    )
    makeTrack(
      join(dir, '02 Middle.mp3'),
      { title: 'Middle', artist: 'Main Singer', album: 'Guest Album', track: 2 },
      2,
    )
    makeTrack(
      join(dir, '03 Closing.mp3'),
      { title: 'Closing', artist: 'Main Singer', album: 'Guest Album', track: 3 },
      3,
    )
    await withServer(music, dataDir, async (url) => {
      const albums = await albumsNamed(url, 'Guest Album')
      expect(albums).toHaveLength(1)
      expect(albums[0].artists[0].name).toBe('Main Singer')
      const album = await data(url, `/playlist/detail?id=${albums[0].id}`)
      expect(album.songs.map((s: Json) => s.name)).toEqual(['Opening', 'Middle', 'Closing'])
    })
  })

  it('keeps a compilation (the tag, or many artists) as one album', async () => {
    const { music, dataDir } = scratch()
    mkdirSync(join(music, 'Tagged'))
    mkdirSync(join(music, 'Untagged'))
    for (let i = 1; i <= 3; i++) {
      makeTrack(
        join(music, 'Tagged', `0${i}.flac`),
        { title: `Tagged ${i}`, artist: `Artist ${i}`, album: 'Hits Tagged', track: i, compilation: true },
        i,
      )
      makeTrack(
        join(music, 'Untagged', `0${i}.mp3`),
        { title: `Untagged ${i}`, artist: `Singer ${i}`, album: 'Hits Untagged', track: i },
        i + 3,
      )
    }
    await withServer(music, dataDir, async (url) => {
      for (const name of ['Hits Tagged', 'Hits Untagged']) {
        const albums = await albumsNamed(url, name)
        expect(albums).toHaveLength(1)
        expect(albums[0].artists[0].name).toBe('Various Artists')
        expect((await data(url, `/playlist/detail?id=${albums[0].id}`)).songs).toHaveLength(3)
      }
    })
  })

  it('orders a two-disc album by disc, then track', async () => {
    const { music, dataDir } = scratch()
    const tags = { artist: 'Band', albumArtist: 'Band', album: 'Double' }
    makeTrack(join(music, 'a.mp3'), { ...tags, title: 'Disc Two One', disc: 2, track: 1 }, 1)
    makeTrack(join(music, 'b.mp3'), { ...tags, title: 'Disc One Two', disc: 1, track: 2 }, 2)
    makeTrack(join(music, 'c.mp3'), { ...tags, title: 'Disc One One', disc: 1, track: 1 }, 3)
    await withServer(music, dataDir, async (url) => {
      const [album] = await albumsNamed(url, 'Double')
      const detail = await data(url, `/playlist/detail?id=${album.id}`)
      expect(detail.songs.map((s: Json) => s.name)).toEqual(['Disc One One', 'Disc One Two', 'Disc Two One'])
    })
  })
})

describe('library import: file names and identity', () => {
  it('imports and streams a file whose name is not UTF-8', async () => {
    const { music, dataDir } = scratch()
    // "café.mp3" in Latin-1: 0xE9 alone is not UTF-8.
    const name = Buffer.concat([Buffer.from(join(music, 'caf')), Buffer.from([0xe9]), Buffer.from('.mp3')])
    makeTrack(name, { title: 'Latin One', artist: 'Old Disk' })
    await withServer(music, dataDir, async (url) => {
      const found = await data(url, '/search?keywords=Latin%20One')
      expect(found.songs).toHaveLength(1)
      const detail = await data(url, `/song/detail?id=${found.songs[0].id}&uid=1`)
      const bytes = Buffer.from(await (await fetch(detail.meta.url)).arrayBuffer())
      expect(bytes.equals(readFileSync(name))).toBe(true)
    })
  })

  it('keeps a song id through rename, move and retag; a file reached twice is one song; link loops end', async () => {
    const { root, music, dataDir } = scratch()
    mkdirSync(join(music, 'A'))
    const first = join(music, 'A', 'one.mp3')
    makeTrack(first, { title: 'Keeper', artist: 'Ident', album: 'Same' }, 5, 2)
    makeTrack(join(music, 'A', 'two.flac'), { title: 'Other', artist: 'Ident', album: 'Same' }, 6, 2)
    // A link to a folder inside (the same files again), a loop, and a second chosen folder inside the first.
    symlinkSync(join(music, 'A'), join(music, 'A again'))
    symlinkSync(music, join(music, 'A', 'loop'))
    const db = openDatabase(dataDir)
    const songs = () =>
      db.prepare("SELECT id, name FROM songs WHERE source = 'library' ORDER BY name").all() as Array<{
        id: number
        name: string
      }>
    try {
      const report = await importLibrary(db, [music, join(music, 'A')], dataDir)
      expect(report.added).toBe(2)
      const [keeper] = songs().filter((s) => s.name === 'Keeper')
      expect(songs()).toHaveLength(2)

      mkdirSync(join(music, 'B'))
      renameSync(first, join(music, 'B', 'renamed.mp3'))
      await importLibrary(db, [music, join(music, 'A')], dataDir)
      expect(songs()).toEqual([{ id: keeper.id, name: 'Keeper' }, expect.objectContaining({ name: 'Other' })])

      retag(join(music, 'B', 'renamed.mp3'), { title: 'Keeper Retagged', album: 'Elsewhere' })
      renameSync(join(music, 'B', 'renamed.mp3'), join(root, 'moved-out.mp3'))
      renameSync(join(root, 'moved-out.mp3'), join(music, 'B', 'retagged.mp3'))
      await importLibrary(db, [music, join(music, 'A')], dataDir)
      expect(songs()).toEqual([
        { id: keeper.id, name: 'Keeper Retagged' },
        expect.objectContaining({ name: 'Other' }),
      ])

      const flac = join(music, 'A', 'two.flac')
      const [other] = songs().filter((s) => s.name === 'Other')
      retag(flac, { title: 'Other Retagged' })
      renameSync(flac, join(music, 'B', 'two moved.flac'))
      await importLibrary(db, [music, join(music, 'A')], dataDir)
      expect(songs().find((s) => s.name === 'Other Retagged')?.id).toBe(other.id)
    } finally {
      db.close()
    }
  })
})
