import { mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDataSource, type DataSourceHandle } from '../../server/index'
import { data, type Json } from '../conformance/helpers'
import { makeTrack } from '../support/library-files'
import { OWNER_PASSPHRASE } from '../support/phone'

/**
 * A full import of the music folders gives back the memory it used before it reports itself done
 * (`reclaimMemory`, server/reclaim.ts), on the first start and on each rescan; a change the watch
 * applies by itself does not pay for a collection.
 */
const root = mkdtempSync(join(tmpdir(), 'cadence-library-reclaim-'))
const music = join(root, 'music')
const dataDir = join(root, 'data')
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** What the data source did, in order: `reclaim` for each collection, and its library reports. */
let steps: string[] = []
const start = () =>
  startDataSource({
    ownerPassphrase: OWNER_PASSPHRASE,
    dataDir,
    library: music,
    libraryInBackground: true,
    watchLibrary: 200,
    demo: 0,
    onLibrary: (e) => {
      if (e.type === 'library-done') steps.push('done')
    },
    reclaimMemory: () => steps.push('reclaim'),
  })

let server: DataSourceHandle | undefined
beforeAll(() => {
  mkdirSync(join(music, 'Album'), { recursive: true })
  for (let i = 1; i <= 3; i++)
    makeTrack(join(music, 'Album', `${i}.wav`), { title: `Kept ${i}`, artist: 'Keeper' }, i)
}, 60_000)
afterAll(() => server?.close())

const found = async (q: string) =>
  ((await data(server!.url, `/search?limit=10&keywords=${encodeURIComponent(q)}`)).songs as Json[]).length

describe('the memory of an import', () => {
  it('is given back once the first import is done, before it is reported', async () => {
    server = await start()
    await server.libraryImported
    expect(steps).toEqual(['reclaim', 'done'])
    expect(await found('Kept')).toBe(3)
  }, 60_000)

  it('is not collected again for a change the watch applies by itself', async () => {
    steps = []
    const later = join(music, 'Album', '4.wav')
    makeTrack(later, { title: 'Arrived Later', artist: 'Keeper' }, 4)
    // The folders are watched once the import is done: a file written before its folder's watch was
    // there is touched again until the watch sees it.
    const seen = async () => {
      const n = await found('Arrived Later')
      if (n === 0) utimesSync(later, new Date(), new Date())
      return n
    }
    await expect.poll(seen, { timeout: 60_000, interval: 500 }).toBe(1)
    await expect.poll(() => steps.includes('done'), { timeout: 10_000 }).toBe(true)
    expect(steps).not.toContain('reclaim')
  }, 90_000)

  it('is given back after the rescan of a restart too', async () => {
    await server!.close()
    steps = []
    server = await start()
    await server.libraryImported
    expect(steps).toEqual(['reclaim', 'done'])
    expect(await found('Kept')).toBe(3)
  }, 60_000)
})
