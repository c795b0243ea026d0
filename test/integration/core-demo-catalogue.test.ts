import { mkdirSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { MusicFoldersState } from '@shared/ipc/music-folders'
import { data, type Json } from '../conformance/helpers'
import { builtinCore } from '../support/builtin-core'
import { invokeOk } from '../support/test-core'
import { makeTrack } from '../support/library-files'

/**
 * Settings → Music on this computer → "Show the demo catalogue", through main's IPC and the real data
 * source started as main starts it (its launch turned into the server's options, as the glue turns it
 * into `--demo` / `--no-demo`): shown while no folder is chosen; off, its songs, albums, artists,
 * playlists and charts appear nowhere and the folders' songs stay; on again, it is back.
 */
const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step()
})

async function setup(pick: () => string | undefined) {
  const root = await mkdtemp(join(tmpdir(), 'cadence-demo-catalogue-'))
  cleanups.push(() => rm(root, { recursive: true, force: true }))
  const built = builtinCore(root, pick, (launch) =>
    launch.demo === false ? { removeDemo: true } : launch.demo ? { demo: 6 } : {},
  )
  cleanups.push(built.stop)
  await built.core.builtin.start()
  return { root, ...built }
}

/** What a person can browse without a login: charts, recommendations, and search for `names`. */
async function everywhere(url: string, names: string[]) {
  const names_ = (list: Json[]) => list.map((x: Json) => x.name as string)
  const found: string[] = []
  for (const name of names) {
    const r = await data(url, `/search?keywords=${encodeURIComponent(name)}`)
    found.push(...names_(r.songs), ...names_(r.albums), ...names_(r.artists), ...names_(r.playlists))
  }
  return {
    charts: names_(await data(url, '/playlist/toplist')),
    playlists: names_(await data(url, '/playlist/recommend')),
    artists: names_(await data(url, '/artist/recommend')),
    songs: names_(await data(url, '/song/recommend?limit=50')),
    found,
  }
}

describe('the demo catalogue from the app', () => {
  it('is shown while no folder is chosen, can be turned off and on again; the folders’ songs stay', async () => {
    const picker: { folder?: string } = {}
    const t = await setup(() => picker.folder)
    expect(await invokeOk(t.core, 'library:demo')).toEqual({ shown: true })
    expect(t.launches.map((l) => l.demo)).toEqual([true])

    // The demo as it is: its songs' names, one playlist's and one artist's.
    const on = await everywhere(t.running.url, [])
    expect(on.charts.length).toBeGreaterThan(0)
    expect(on.playlists.length).toBeGreaterThan(0)
    expect(on.artists.length).toBeGreaterThan(0)
    expect(on.songs.length).toBeGreaterThan(0)
    const demoNames = [on.songs[0]!, on.playlists[0]!, on.artists[0]!]
    const demoSong = (await data(t.running.url, '/song/recommend?limit=1'))[0].id as number
    expect((await everywhere(t.running.url, demoNames)).found).toEqual(expect.arrayContaining(demoNames))

    // A folder of one's own music.
    const music = join(t.root, 'music')
    mkdirSync(music)
    makeTrack(join(music, 'mine.flac'), { title: 'Quite My Own', artist: 'Me Myself', album: 'Home' }, 3)
    picker.folder = music
    await invokeOk(t.core, 'library:add-folder')
    await vi.waitFor(
      async () => {
        const state = await invokeOk<MusicFoldersState>(t.core, 'library:folders')
        expect(state.folders[0]?.songs).toBe(1)
      },
      { timeout: 30_000, interval: 100 },
    )

    // Off: nowhere (charts, recommendations, search, the song itself); the folder's song stays.
    expect(await invokeOk(t.core, 'library:set-demo', { shown: false })).toEqual({ shown: false })
    expect(t.launches.at(-1)!.demo).toBe(false)
    expect(await invokeOk(t.core, 'library:demo')).toEqual({ shown: false })
    const off = await everywhere(t.running.url, [...demoNames, 'Quite My Own'])
    expect(off.charts).toEqual([])
    expect(off.playlists).toEqual([])
    expect(off.artists).not.toEqual(expect.arrayContaining([demoNames[2]]))
    expect(off.songs).toEqual(['Quite My Own'])
    expect(off.found).toEqual(['Quite My Own'])
    expect((await fetch(`${t.running.url}/song/detail?id=${demoSong}`)).status).toBe(404)

    // On again: back everywhere, the folder's song still there.
    await invokeOk(t.core, 'library:set-demo', { shown: true })
    expect(t.launches.at(-1)!.demo).toBe(true)
    const again = await everywhere(t.running.url, [...demoNames, 'Quite My Own'])
    expect(again.charts).toEqual(on.charts)
    expect(again.found).toEqual(expect.arrayContaining([...demoNames, 'Quite My Own']))
    expect(again.songs.length).toBeGreaterThan(1)
  }, 120_000)

  it('is off by default once a folder is chosen, unless turned on', async () => {
    const picker: { folder?: string } = {}
    const t = await setup(() => picker.folder)
    const music = join(t.root, 'music')
    mkdirSync(music)
    makeTrack(join(music, 'mine.mp3'), { title: 'Only Mine', artist: 'Me Myself' }, 4)
    picker.folder = music
    await invokeOk(t.core, 'library:add-folder')
    expect(t.launches.map((l) => l.demo)).toEqual([true, false])
    expect(await invokeOk(t.core, 'library:demo')).toEqual({ shown: false })
    await vi.waitFor(async () => expect((await data(t.running.url, '/playlist/toplist')).length).toBe(0), {
      timeout: 30_000,
      interval: 100,
    })
    await invokeOk(t.core, 'library:set-demo', { shown: true })
    expect(t.launches.map((l) => l.demo)).toEqual([true, false, true])
    expect((await data(t.running.url, '/playlist/toplist')).length).toBeGreaterThan(0)
  }, 120_000)
})
