import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDataSource, type DataSourceHandle } from '../../server/index'
import { data, type Json } from '../conformance/helpers'
import { makeTrack, retag } from '../support/library-files'
import { OWNER_PASSPHRASE } from '../support/phone'

/** While the data source runs, changes in a chosen folder show up without a rescan (issue 36). */
const root = mkdtempSync(join(tmpdir(), 'cadence-library-watch-'))
const music = join(root, 'music')
afterAll(() => rmSync(root, { recursive: true, force: true }))

let server: DataSourceHandle
beforeAll(async () => {
  mkdirSync(join(music, 'Deep', 'Er'), { recursive: true })
  makeTrack(join(music, 'first.mp3'), { title: 'Watched First', artist: 'Watcher' }, 1)
  server = await startDataSource({
    ownerPassphrase: OWNER_PASSPHRASE,
    dataDir: join(root, 'data'),
    library: music,
    libraryInBackground: true,
    watchLibrary: 200,
    demo: 0,
  })
  await server.libraryImported
})
afterAll(() => server?.close())

const songs = async (q: string) =>
  ((await data(server.url, `/search?keywords=${encodeURIComponent(q)}`)).songs as Json[]).map((s) => ({
    id: s.id as number,
    name: s.name as string,
  }))
const POLL = { timeout: 20_000, interval: 200 }

describe('library watch', () => {
  it('shows a file added, retagged, renamed, moved and deleted while it runs', async () => {
    expect(await songs('Watched')).toEqual([{ id: expect.any(Number), name: 'Watched First' }])

    makeTrack(join(music, 'Deep', 'Er', 'added.flac'), { title: 'Watched Added', artist: 'Watcher' }, 2)
    await expect.poll(() => songs('Watched Added'), POLL).toHaveLength(1)
    const [added] = await songs('Watched Added')

    retag(join(music, 'Deep', 'Er', 'added.flac'), { title: 'Watched Retagged' })
    await expect
      .poll(() => songs('Watched Retagged'), POLL)
      .toEqual([{ id: added.id, name: 'Watched Retagged' }])

    renameSync(join(music, 'Deep', 'Er', 'added.flac'), join(music, 'renamed.flac'))
    mkdirSync(join(music, 'New Folder'))
    renameSync(join(music, 'first.mp3'), join(music, 'New Folder', 'first moved.mp3'))
    const files = async () =>
      ((await data(server.url, `/song/detail?id=${added.id}&uid=1`)) as Json).meta?.url as string | undefined
    // The old paths are gone: the songs play again once the moves are imported, under their old ids.
    await expect.poll(files, POLL).toBeTruthy()
    expect((await songs('Watched')).sort((a, b) => a.id - b.id)).toEqual([
      { id: expect.any(Number), name: 'Watched First' },
      { id: added.id, name: 'Watched Retagged' },
    ])

    unlinkSync(join(music, 'renamed.flac'))
    await expect.poll(() => songs('Watched Retagged'), POLL).toEqual([])
  })

  it('keeps the songs of a folder that goes away, unavailable, and brings them back with it', async () => {
    const [first] = await songs('Watched First')
    const playable = async () =>
      ((await data(server.url, `/song/detail?id=${first.id}&uid=1`)) as Json).privilege.playable as boolean
    await expect.poll(playable, POLL).toBe(true)
    renameSync(music, join(root, 'unplugged'))
    const reason = async () =>
      ((await data(server.url, `/song/detail?id=${first.id}&uid=1`)) as Json).privilege.reason as string
    await expect.poll(reason, POLL).toMatch(/music folder is not there/)
    expect(await playable()).toBe(false)
    expect(await songs('Watched First')).toEqual([first])
    renameSync(join(root, 'unplugged'), music)
    await expect.poll(playable, POLL).toBe(true)
    expect(await songs('Watched First')).toEqual([first])
  })
})
