import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDataSource, type DataSourceHandle } from '../../server/index'
import { watchFolders, type WatchBatch } from '../../server/library/watch'
import { data, type Json } from '../conformance/helpers'
import { makeTrack } from '../support/library-files'
import { OWNER_PASSPHRASE } from '../support/phone'

/**
 * Linux: each folder has a watch of its own (not each file), a folder made after the import is watched
 * as it appears, and past the cap the rest is left to periodic full imports (issue 36).
 */
const linux = process.platform === 'linux'
const root = mkdtempSync(join(tmpdir(), 'cadence-library-folders-'))
const music = join(root, 'music')
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** The inotify watches this process holds (one `inotify wd:` line each in its inotify descriptors' fdinfo). */
function inotifyWatches(): number {
  let count = 0
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string | undefined
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`)
    } catch {
      // closed meanwhile
    }
    if (target !== 'anon_inode:inotify') continue
    try {
      count += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('inotify wd:')).length
    } catch {
      // closed meanwhile
    }
  }
  return count
}

const FOLDERS = 3
const FILES_PER_FOLDER = 8
let server: DataSourceHandle
let before = 0
beforeAll(async () => {
  const base = join(root, 'base.wav')
  makeTrack(base, { title: 'Folder Filler' }, 7)
  const bytes = readFileSync(base)
  for (let f = 0; f < FOLDERS; f++) {
    mkdirSync(join(music, `Folder ${f}`), { recursive: true })
    for (let i = 0; i < FILES_PER_FOLDER; i++) {
      const copy = Buffer.from(bytes)
      copy.writeUInt16LE(f * 100 + i + 1, copy.length - 2)
      writeFileSync(join(music, `Folder ${f}`, `filler ${i}.wav`), copy)
    }
  }
  before = linux ? inotifyWatches() : 0
  server = await startDataSource({
    ownerPassphrase: OWNER_PASSPHRASE,
    dataDir: join(root, 'data'),
    library: music,
    libraryInBackground: true,
    watchLibrary: 200,
    demo: 0,
  })
  await server.libraryImported
}, 120_000)
afterAll(() => server?.close())

const songs = async (q: string) =>
  ((await data(server.url, `/search?limit=100&keywords=${encodeURIComponent(q)}`)).songs as Json[]).map(
    (s) => s.name as string,
  )
const POLL = { timeout: 30_000, interval: 200 }

describe.runIf(linux)('library watch on Linux', () => {
  it('watches each folder once, not each file, and a folder made after the import as it appears', async () => {
    // The chosen folder and its three folders: four watches (a watch per file would be 28).
    await expect.poll(() => inotifyWatches() - before, POLL).toBe(1 + FOLDERS)

    mkdirSync(join(music, 'Later', 'Deeper'), { recursive: true })
    await expect.poll(() => inotifyWatches() - before, POLL).toBe(3 + FOLDERS)
    makeTrack(join(music, 'Later', 'Deeper', 'late.mp3'), { title: 'Arrived Later' }, 3)
    await expect.poll(() => songs('Arrived Later'), POLL).toEqual(['Arrived Later'])
    makeTrack(join(music, 'Later', 'later.flac'), { title: 'Arrived Even Later' }, 4)
    await expect.poll(() => songs('Arrived Even Later'), POLL).toEqual(['Arrived Even Later'])

    // A removed folder's watches go with it.
    rmSync(join(music, 'Later'), { recursive: true })
    await expect.poll(() => songs('Arrived'), POLL).toEqual([])
    await expect.poll(() => inotifyWatches() - before, POLL).toBe(1 + FOLDERS)
    expect(server.libraryScans().full).toBe(0)
  }, 180_000)

  it('past the cap, watches that many folders and asks for a full import now and then', async () => {
    const batches: WatchBatch[] = []
    const watch = watchFolders([music], (b) => batches.push(b), { maxFolders: 2, rescanMs: 500 })
    try {
      await expect.poll(() => watch.overCap, POLL).toBe(true)
      expect(watch.watchedFolders).toBe(2)
      await expect.poll(() => batches.some((b) => 'full' in b), POLL).toBe(true)
    } finally {
      watch.close()
    }
  }, 90_000)
})
