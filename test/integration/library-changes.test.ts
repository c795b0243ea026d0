import {
  cpSync,
  mkdirSync,
  readdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LibraryReport } from '@shared/ipc/music-folders'
import { startDataSource, type DataSourceHandle } from '../../server/index'
import { data, type Json } from '../conformance/helpers'
import { makeTrack, retag } from '../support/library-files'
import { OWNER_PASSPHRASE } from '../support/phone'

/**
 * While the data source runs, each change in a chosen folder is applied by itself: the paths the watch
 * reports are read or removed, and the folder is not walked again (issue 36).
 */
const root = mkdtempSync(join(tmpdir(), 'cadence-library-changes-'))
const music = join(root, 'music')
const outside = join(root, 'outside')
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** Files already in the library, so a walk of the whole folder would look at each of them. */
const FILLERS = 90
const FILLER_FOLDERS = 6

let server: DataSourceHandle
const events: LibraryReport[] = []
beforeAll(async () => {
  mkdirSync(join(music, 'Deep', 'Er'), { recursive: true })
  mkdirSync(outside)
  makeTrack(join(music, 'first.mp3'), { title: 'Changed First', artist: 'Changer' }, 1)
  // Fillers: one WAV made by ffmpeg, each copy with other last samples (so other audio).
  const base = join(root, 'filler.wav')
  makeTrack(base, { title: 'Filler', artist: 'Filler' }, 9)
  const bytes = readFileSync(base)
  for (let i = 0; i < FILLERS; i++) {
    const dir = join(music, 'Fillers', `Folder ${i % FILLER_FOLDERS}`)
    mkdirSync(dir, { recursive: true })
    const copy = Buffer.from(bytes)
    copy.writeUInt16LE(i + 1, copy.length - 2)
    writeFileSync(join(dir, `filler ${i}.wav`), copy)
  }
  server = await startDataSource({
    ownerPassphrase: OWNER_PASSPHRASE,
    dataDir: join(root, 'data'),
    library: music,
    libraryInBackground: true,
    watchLibrary: 200,
    demo: 0,
    onLibrary: (e) => events.push(e),
  })
  await server.libraryImported
}, 120_000)
afterAll(() => server?.close())

const songs = async (q: string) =>
  ((await data(server.url, `/search?limit=100&keywords=${encodeURIComponent(q)}`)).songs as Json[])
    .map((s) => ({ id: s.id as number, name: s.name as string }))
    .sort((a, b) => a.id - b.id)
const detail = async (id: number) => (await data(server.url, `/song/detail?id=${id}&uid=1`)) as Json
/** The bytes a song's media URL serves (200 only while its file is where the library says). */
const served = async (id: number) => {
  const url = (await detail(id)).meta?.url as string | undefined
  return url ? (await fetch(url)).status : 0
}
const POLL = { timeout: 30_000, interval: 200 }

describe('library changes while watched', () => {
  it('applies a file added, retagged, renamed, moved and deleted, and a folder added, moved and removed', async () => {
    expect((await songs('Filler')).length).toBe(FILLERS)
    const importsBefore = events.filter((e) => e.type === 'library-progress').length

    makeTrack(join(music, 'Deep', 'Er', 'added.flac'), { title: 'Changed Added', artist: 'Changer' }, 2)
    await expect.poll(() => songs('Changed Added'), POLL).toHaveLength(1)
    const [added] = await songs('Changed Added')

    retag(join(music, 'Deep', 'Er', 'added.flac'), { title: 'Changed Retagged', album: 'Changed Album' })
    await expect
      .poll(() => songs('Changed Retagged'), POLL)
      .toEqual([{ id: added.id, name: 'Changed Retagged' }])
    // Its album, grouped with the change.
    await expect.poll(async () => (await detail(added.id)).album?.name, POLL).toBe('Changed Album')
    const albums = async (q: string) =>
      ((await data(server.url, `/search?keywords=${encodeURIComponent(q)}`)).albums as Json[]).map(
        (a) => a.name as string,
      )
    expect(await albums('Changed Album')).toEqual(['Changed Album'])

    // Renamed in its folder, then moved to another: the same song, served from where it is now.
    renameSync(join(music, 'Deep', 'Er', 'added.flac'), join(music, 'Deep', 'Er', 'renamed.flac'))
    await expect.poll(() => served(added.id), POLL).toBe(200)
    renameSync(join(music, 'Deep', 'Er', 'renamed.flac'), join(music, 'moved.flac'))
    await expect.poll(() => served(added.id), POLL).toBe(200)
    expect(await songs('Changed Retagged')).toEqual([{ id: added.id, name: 'Changed Retagged' }])

    expect((await detail(added.id)).album?.name).toBe('Changed Album')
    unlinkSync(join(music, 'moved.flac'))
    await expect.poll(() => songs('Changed Retagged'), POLL).toEqual([])
    // Its album, left without songs, goes with it.
    await expect.poll(() => albums('Changed Album'), POLL).toEqual([])

    // A file name that is not UTF-8 (Latin-1 "café"): added and removed by its bytes.
    const latin1 = Buffer.concat([
      Buffer.from(join(music, 'Deep') + '/caf'),
      Buffer.from([0xe9]),
      Buffer.from('.mp3'),
    ])
    makeTrack(latin1, { title: 'Changed Latin' }, 6)
    await expect.poll(() => songs('Changed Latin'), POLL).toHaveLength(1)
    const [latin] = await songs('Changed Latin')
    expect(await served(latin.id)).toBe(200)
    unlinkSync(latin1)
    await expect.poll(() => songs('Changed Latin'), POLL).toEqual([])

    // A folder made elsewhere and moved in: walked by itself.
    mkdirSync(join(outside, 'Album', 'CD1'), { recursive: true })
    makeTrack(join(outside, 'Album', 'CD1', 'one.mp3'), { title: 'Folder One', album: 'Folder Album' }, 3)
    makeTrack(join(outside, 'Album', 'two.opus'), { title: 'Folder Two', album: 'Folder Album' }, 4)
    renameSync(join(outside, 'Album'), join(music, 'Album'))
    await expect
      .poll(async () => (await songs('Folder')).map((s) => s.name), POLL)
      .toEqual([expect.stringMatching(/^Folder (One|Two)$/), expect.stringMatching(/^Folder (One|Two)$/)])
    const inFolder = await songs('Folder')
    const album = (await detail(inFolder[0].id)).album?.id as number
    expect(album).toBeGreaterThan(0)

    // The folder moved: its songs keep their ids and play from the new place.
    mkdirSync(join(music, 'Deep', 'Albums'))
    renameSync(join(music, 'Album'), join(music, 'Deep', 'Albums', 'Album'))
    await expect.poll(async () => Promise.all(inFolder.map((s) => served(s.id))), POLL).toEqual([200, 200])
    expect(await songs('Folder')).toEqual(inFolder)
    expect((await detail(inFolder[0].id)).album?.id).toBe(album)

    rmSync(join(music, 'Deep', 'Albums'), { recursive: true })
    await expect.poll(() => songs('Folder'), POLL).toEqual([])
    // Nothing else was touched.
    expect((await songs('Filler')).length).toBe(FILLERS)
    expect(await songs('Changed First')).toHaveLength(1)

    // Each change was applied by itself: no full import ran (no progress of one), and each batch looked at
    // a few paths, far fewer than the folder's files (a walk looks at every one).
    expect(events.filter((e) => e.type === 'library-progress').length).toBe(importsBefore)
    const scans = server.libraryScans()
    expect(scans.full).toBe(0)
    expect(scans.changes).toBeGreaterThanOrEqual(7)
    expect(scans.statted / scans.changes).toBeLessThan(FILLERS / 6)
    // The app hears of each batch, with the folder's song count.
    const last = events.filter((e) => e.type === 'library-done').at(-1)
    expect(last?.type === 'library-done' && last.folders[0].songs).toBe(FILLERS + 1)
  }, 300_000)

  it('keeps the songs of a chosen folder deleted while watched, unavailable, and brings them back', async () => {
    const [first] = await songs('Changed First')
    const fillers = await songs('Filler')
    const playable = async (id: number) => (await detail(id)).privilege.playable as boolean
    // Deleted file by file (as `rm -r` does), folders last, the chosen folder with them.
    const copy = join(root, 'copy')
    cpSync(music, copy, { recursive: true })
    rmSync(music, { recursive: true })
    await expect
      .poll(async () => (await detail(first.id)).privilege.reason, POLL)
      .toMatch(/music folder is not there/)
    expect(await playable(first.id)).toBe(false)
    expect(await songs('Filler')).toEqual(fillers)
    // It comes back (a drive plugged in again): watched again, every song with its id.
    cpSync(copy, music, { recursive: true })
    await expect.poll(() => playable(first.id), POLL).toBe(true)
    expect(await songs('Changed First')).toEqual([first])
    expect(await songs('Filler')).toEqual(fillers)
    makeTrack(join(music, 'after.mp3'), { title: 'Changed After Return' }, 5)
    await expect.poll(() => songs('Changed After Return'), POLL).toHaveLength(1)
  }, 180_000)

  it('keeps the songs of a chosen folder left empty (a drive unmounted, its mount point kept)', async () => {
    const [first] = await songs('Changed First')
    const fillers = await songs('Filler')
    const mounted = join(root, 'mounted')
    mkdirSync(mounted)
    for (const name of readdirSync(music)) renameSync(join(music, name), join(mounted, name))
    await expect
      .poll(async () => (await detail(first.id)).privilege.reason, POLL)
      .toMatch(/music folder is not there/)
    expect(await songs('Filler')).toEqual(fillers)
    expect((await detail(fillers[0].id)).privilege.playable).toBe(false)
    // Mounted again: the same songs play.
    for (const name of readdirSync(mounted)) renameSync(join(mounted, name), join(music, name))
    await expect.poll(async () => (await detail(first.id)).privilege.playable, POLL).toBe(true)
    await expect.poll(async () => (await detail(fillers[0].id)).privilege.playable, POLL).toBe(true)
    expect(await songs('Filler')).toEqual(fillers)
  }, 180_000)
})
