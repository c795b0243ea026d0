import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, it } from 'vitest'
import { createCore, createMemoryStore } from '@main/core'
import { createApiClient } from '@main/core/api/client'
import type { Song } from '@shared/api/models'
import { MAX_LIST_ROWS } from '@shared/ipc/contract'
import type { AlbumDetail, IpcResult, PlaylistHead, PlaylistRows } from '@shared/ipc/contract'
import { json, ok, startFixtureServer } from '../support/fixture-server'
import { createTestCipher } from '../support/test-cipher'

/**
 * Issue 33, item 1: a data source that claims lists without end. Each test's source is a real HTTP
 * server on loopback speaking the API's envelope as a hostile source would: a playlist or album that
 * says it has 10¹² songs and answers `limit` songs for any offset, or browse answers that differ with
 * every query. Main must fetch and keep a bounded amount whatever the source claims.
 */

const APP = { senderUrl: 'app://cadence/index.html' }
const MB = 1024 * 1024
const CLAIM = 1e12
/** Pages main may fetch for one list: 100,000 rows a server page (1,000 songs) at a time. */
const MAX_PAGES = Math.ceil(MAX_LIST_ROWS / 1000)
/** Past this many list requests the source answers an error, so code without a cap fails, not hangs. */
const GIVE_UP = MAX_PAGES + 50

/**
 * The garbage collector, to read memory after what can be collected is gone. What is asserted is the
 * live memory (heap and array buffers after a full collection); rss is printed beside it but not asserted:
 * validating 100,000 rows with zod makes V8 grow its heap by about 150 MB of garbage between collections
 * (the same for a real 100,000-song list), and V8 keeps those pages.
 */
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

function memory() {
  gc()
  const { rss, heapUsed, arrayBuffers } = process.memoryUsage()
  return { rss, heapUsed, arrayBuffers }
}
const mb = (bytes: number) => +(bytes / MB).toFixed(1)
function growth(label: string, before: ReturnType<typeof memory>, after: ReturnType<typeof memory>) {
  const figures = {
    before: { rssMB: mb(before.rss), heapMB: mb(before.heapUsed), arrayBuffersMB: mb(before.arrayBuffers) },
    after: { rssMB: mb(after.rss), heapMB: mb(after.heapUsed), arrayBuffersMB: mb(after.arrayBuffers) },
  }
  const live = mb(after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers))
  console.log(`${label}: memory ${JSON.stringify(figures)}, live growth ${live} MB`)
  return { live: after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers) }
}

/**
 * The hostile source, in its own process (so the test's process measures only the app's memory):
 * `/playlist/detail` claims `CLAIM` songs and answers `limit` of them (about 150 bytes each, so a page of
 * 1,000 is long enough to be kept as JSON text) for any offset; `/album/detail` claims as much and sends
 * `albumSongs` songs, or answers 404 as a source without album pages does. `/__asked` tells how many list
 * and album requests came.
 */
const SOURCE = `
const http = require('node:http')
const [CLAIM, GIVE_UP, TYPE, ALBUM_SONGS] = JSON.parse(process.argv[1])
const asked = { lists: 0, albums: 0 }
const song = (i) => ({
  id: i + 1,
  name: 'song ' + (i + 1),
  artists: [{ id: (i % 50) + 1, name: 'artist ' + ((i % 50) + 1) }],
  album: { id: (i % 80) + 1, name: 'album ' + ((i % 80) + 1) },
  duration: 200000,
})
const send = (res, status, body) => {
  res.writeHead(status, { 'Content-Type': 'application/json' })
  res.end(JSON.stringify(body))
}
const ok = (data) => ({ code: 0, message: 'Success', data })
const notFound = { code: 404, message: 'Not found', data: null }
http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x')
  const q = url.searchParams
  switch (url.pathname) {
    case '/__asked': return send(res, 200, asked)
    case '/connect/qr/key': return send(res, 200, ok({ unikey: 'k' }))
    case '/connect/status': return send(res, 401, { code: -1, message: 'Please log in first', data: null })
    case '/playlist/detail': {
      // Past GIVE_UP requests it fails, so code without a cap fails the test instead of running on.
      if (++asked.lists > GIVE_UP) return send(res, 500, { code: 500, message: 'enough', data: null })
      const offset = Number(q.get('offset') ?? 0)
      const limit = Number(q.get('limit') ?? 1000)
      const songs = Array.from({ length: limit }, (_, k) => song(offset + k))
      return send(res, 200, ok({ id: q.get('id'), name: 'Endless', type: TYPE, size: CLAIM, songs }))
    }
    case '/album/detail': {
      asked.albums++
      if (ALBUM_SONGS === null) return send(res, 404, notFound)
      const songs = Array.from({ length: ALBUM_SONGS }, (_, i) => ({ id: i + 1, name: 's' + i }))
      return send(res, 200, ok({ id: q.get('id'), name: 'Endless album', type: 'album', size: CLAIM, songs }))
    }
    default: return send(res, 404, notFound)
  }
}).listen(0, '127.0.0.1', function () { console.log('port ' + this.address().port) })
`

async function startHostileSource(options: { type?: 'normal' | 'album'; albumSongs?: number } = {}) {
  const args = [CLAIM, GIVE_UP, options.type ?? 'normal', options.albumSongs ?? null]
  const child = spawn(process.execPath, ['-e', SOURCE, JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the hostile source exited (${code})`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('port ')) resolve(line.slice(5))
    })
  })
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    asked: async () => (await (await fetch(`${url}/__asked`)).json()) as { lists: number; albums: number },
    close: () => void child.kill(),
  }
}

describe('a data source that claims lists without end', () => {
  const closers: Array<() => Promise<void> | void> = []
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close()
  })

  async function coreOn(url: string) {
    const core = createCore({
      store: createMemoryStore(),
      cipher: createTestCipher(),
      isTrustedSender: () => true,
      appInfo: { name: 'Cadence', version: '0', platform: 'linux' },
    })
    closers.push(() => core.dispose())
    const value = async <T>(channel: string, args?: unknown): Promise<T> => {
      const result = (await core.router.invoke(channel, args, APP)) as IpcResult<T>
      if (!result.ok) throw new Error(`${channel}: ${result.error.kind} ${result.error.message}`)
      return result.value
    }
    const added = await value<{ id: string }>('sources:add', { url })
    await value('sources:activate', { id: added.id })
    return { core, value }
  }

  it('fetches at most 100 pages of a playlist claiming 10¹² songs when searched within, and says it shows the first 100,000', async () => {
    const source = await startHostileSource()
    closers.push(() => source.close())
    const app = await coreOn(source.url)
    const before = memory()

    const head = await app.value<PlaylistHead>('catalog:playlist', { id: 7 })
    expect(head.total).toBe(MAX_LIST_ROWS)
    expect(head.capped).toEqual({ claimed: CLAIM, shown: MAX_LIST_ROWS })
    expect(head.rows[0]?.name).toBe('song 1')

    // Typing in the playlist's filter: a search within the whole list.
    const found = await app.value<PlaylistRows>('catalog:playlist-rows', {
      id: 7,
      offset: 0,
      limit: 50,
      query: 'song 99999',
    })
    expect(found.rows.map((r: Song) => r.name)).toEqual(['song 99999'])
    expect(found.capped).toEqual({ claimed: CLAIM, shown: MAX_LIST_ROWS })
    // A sort looks at every row too: nothing more is fetched.
    const sorted = await app.value<PlaylistRows>('catalog:playlist-rows', {
      id: 7,
      offset: 0,
      limit: 10,
      sort: { by: 'title', descending: true },
    })
    expect(sorted.total).toBe(MAX_LIST_ROWS)
    // Rows past the cap are none, and asking for them fetches nothing.
    const past = await app.value<PlaylistRows>('catalog:playlist-rows', {
      id: 7,
      offset: 150_000,
      limit: 100,
    })
    expect(past.rows).toHaveLength(0)

    const pages = (await source.asked()).lists
    console.log(`playlist claiming ${CLAIM} songs: ${pages} pages fetched`)
    expect(pages).toBeLessThanOrEqual(MAX_PAGES)
    const grew = growth('playlist claiming 10¹² songs, searched', before, memory())
    expect(grew.live).toBeLessThan(100 * MB)
  }, 120_000)

  it('reads an album whose source has no album endpoint (its album-type playlist claiming 10¹² songs) as the album page does, fetching at most 100 pages', async () => {
    const source = await startHostileSource({ type: 'album' })
    closers.push(() => source.close())
    const app = await coreOn(source.url)
    const before = memory()

    // The album page (renderer/src/stores/album.ts): the album endpoint first, then the album's own
    // playlist, every row of it read 2,000 at a time until the header's total.
    await expect(app.value('albums:detail', { id: 9 })).rejects.toThrow(/unavailable/)
    const head = await app.value<PlaylistHead>('catalog:playlist', { id: 9 })
    expect(head.type).toBe('album')
    expect(head.capped).toEqual({ claimed: CLAIM, shown: MAX_LIST_ROWS })
    let read = head.rows.length
    for (let asks = 0; read < head.total && asks < 200; asks++) {
      const page = await app.value<PlaylistRows>('catalog:playlist-rows', {
        id: 9,
        offset: read,
        limit: 2000,
      })
      if (page.rows.length === 0) break
      read += page.rows.length
    }
    expect(read).toBe(MAX_LIST_ROWS)
    const pages = (await source.asked()).lists
    console.log(`album playlist claiming ${CLAIM} songs: ${pages} pages fetched, ${read} rows read`)
    expect(pages).toBeLessThanOrEqual(MAX_PAGES)
    const grew = growth('album playlist claiming 10¹² songs, read whole', before, memory())
    expect(grew.live).toBeLessThan(100 * MB)
  }, 120_000)

  it('shows at most 100,000 songs of an album claiming 10¹² and sending 150,000, and says so', async () => {
    const source = await startHostileSource({ albumSongs: 150_000 })
    closers.push(() => source.close())
    const app = await coreOn(source.url)

    const album = await app.value<AlbumDetail>('albums:detail', { id: 3 })
    expect(album.songs).toHaveLength(MAX_LIST_ROWS)
    expect(album.size).toBe(MAX_LIST_ROWS)
    expect(album.capped).toEqual({ claimed: CLAIM, shown: MAX_LIST_ROWS })
    expect(album.songs?.at(-1)?.name).toBe(`s${MAX_LIST_ROWS - 1}`)
    expect((await source.asked()).albums).toBe(1)
  }, 60_000)

  it('keeps the API cache bounded after many distinct reads: the least recently used go first', async () => {
    // Browse answers that differ with every query (`limit`), each about 300 KB.
    const list = (n: number) =>
      Array.from({ length: 1500 }, (_, i) => ({
        id: n * 10_000 + i,
        name: `playlist ${n}/${i} ${'x'.repeat(150)}`,
      }))
    const server = await startFixtureServer((req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('limit'))
      json(res, ok(list(n)))
    })
    closers.push(() => server.close())
    const api = createApiClient({ baseUrl: server.url, getCredential: () => undefined })
    await api.recommendPlaylists(1)
    const before = memory()

    const reads = 400
    for (let n = 2; n <= reads + 1; n++) await api.recommendPlaylists(n)
    const asked = server.requests.length
    // The latest answer is reused; the first ones were dropped and are asked again.
    await api.recommendPlaylists(reads + 1)
    expect(server.requests.length).toBe(asked)
    await api.recommendPlaylists(2)
    expect(server.requests.length).toBe(asked + 1)

    const grew = growth(`API cache after ${reads} distinct reads of ~300 KB`, before, memory())
    expect(grew.live).toBeLessThan(100 * MB)
  }, 120_000)
})
