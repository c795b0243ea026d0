import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, it } from 'vitest'
import { createApiClient } from '@main/core/api/client'
import type { ApiClient } from '@main/core/api/client'
import { readCapped } from '@main/core/api/read-capped'
import { createPagedCatalog } from '@main/core/catalog/paged'
import type { ActiveCall } from '@main/core/sources/active'
import { json, ok, startFixtureServer } from '../support/fixture-server'

/**
 * Issue 33, item 1, the bounds one at a time with a hostile source on loopback: the bytes one list may
 * keep alive, the API cache's age limit, and turns of the event loop while a big answer is read.
 */

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const MB = 1024 * 1024
/** Live memory (heap and array buffers) after a full collection. */
function live() {
  gc()
  const { heapUsed, arrayBuffers, rss } = process.memoryUsage()
  return { bytes: heapUsed + arrayBuffers, rss }
}

describe('bounds against a hostile data source', () => {
  const closers: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (const close of closers.splice(0)) await close()
  })

  it('stops fetching a list once its answers hold maxBytes, and says the list was cut', async () => {
    // Every page is 1,000 songs of about 300 bytes (~300 KB), and the list claims 10¹² songs.
    const pad = 'x'.repeat(250)
    const server = await startFixtureServer((req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams
      const offset = Number(q.get('offset') ?? 0)
      const limit = Number(q.get('limit') ?? 1000)
      const songs = Array.from({ length: limit }, (_, k) => ({
        id: offset + k + 1,
        name: `song ${offset + k + 1} ${pad}`,
      }))
      json(res, ok({ id: 5, name: 'Heavy', size: 1e12, songs }))
    })
    closers.push(server.close)
    const api = createApiClient({ baseUrl: server.url, getCredential: () => undefined })
    const call = (<T>(run: (api: ApiClient, sourceId: string) => Promise<T>) => run(api, 'src')) as ActiveCall
    const catalog = createPagedCatalog({ call, maxBytes: 2 * MB })

    const head = await catalog.open(5)
    expect(head.capped).toEqual({ claimed: 1e12, shown: 100_000 })
    const found = await catalog.rows({ id: 5, offset: 0, limit: 10, query: 'song 7' })
    const pages = server.requests.length
    console.log(
      `a list of ~300 KB pages with maxBytes 2 MB: ${pages} pages fetched, ${found.capped?.shown} rows kept`,
    )
    // 2 MB is 7 pages; up to 4 more were in flight when the bound was passed.
    expect(pages).toBeLessThanOrEqual(12)
    expect(found.capped).toEqual({ claimed: 1e12, shown: pages * 1000 })
    expect(found.rows[0]?.name).toBe(`song 7 ${pad}`)
    // Rows past the cut are none, and asking for them fetches nothing.
    const past = await catalog.rows({ id: 5, offset: 50_000, limit: 100 })
    expect(past.rows).toHaveLength(0)
    expect(server.requests.length).toBe(pages)
  }, 60_000)

  it('drops cached answers older than the cache time when a new one comes', async () => {
    // Browse answers that differ with every query, about 1 MB each.
    const server = await startFixtureServer((req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('limit'))
      json(
        res,
        ok(
          Array.from({ length: 4000 }, (_, i) => ({
            id: n * 10_000 + i,
            name: `${n}/${i} ${'y'.repeat(230)}`,
          })),
        ),
      )
    })
    closers.push(server.close)
    let clock = 0
    // Bounds by size far away, so only age can drop anything.
    const api = createApiClient({
      baseUrl: server.url,
      getCredential: () => undefined,
      now: () => clock,
      cacheTtlMs: 60_000,
      cacheMaxBytes: 1024 * MB,
      cacheMaxEntries: 10_000,
    })
    await api.recommendPlaylists(1)
    const before = live()
    for (let n = 2; n <= 41; n++) await api.recommendPlaylists(n)
    const held = live()
    clock += 61_000
    await api.recommendPlaylists(100)
    const after = live()
    const figures = {
      before: +(before.bytes / MB).toFixed(1),
      with40Answers: +(held.bytes / MB).toFixed(1),
      afterExpiry: +(after.bytes / MB).toFixed(1),
      rssBefore: +(before.rss / MB).toFixed(1),
      rssAfter: +(after.rss / MB).toFixed(1),
    }
    console.log(
      `API cache, 40 answers of ~1 MB then the cache time passes: live MB ${JSON.stringify(figures)}`,
    )
    expect(held.bytes - before.bytes).toBeGreaterThan(20 * MB)
    expect(after.bytes - before.bytes).toBeLessThan(10 * MB)
  }, 60_000)

  it('gives the event loop a turn while it reads a 14 MB answer that has already arrived', async () => {
    const body = Buffer.from(
      JSON.stringify(ok(Array.from({ length: 50_000 }, (_, i) => ({ id: i, name: 'z'.repeat(260) })))),
    )
    const server = await startFixtureServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length })
      res.end(body)
    })
    closers.push(server.close)
    const response = await fetch(`${server.url}/playlist/detail`)
    // Let the whole body arrive before reading it, as a fast server on a fast link delivers it.
    await new Promise((done) => setTimeout(done, 500))
    // A clock that moves 1 ms a look, so the count of turns does not depend on the machine's speed.
    let clock = 0
    let turns = 0
    const bytes = await readCapped(response, 16 * MB, '/playlist/detail', {
      now: () => clock++,
      turn: () => (turns++, new Promise<void>((done) => setImmediate(done))),
    })
    expect(bytes.byteLength).toBe(body.length)
    console.log(`${(body.length / MB).toFixed(1)} MB read with ${turns} turns of the event loop`)
    // One turn per 6 ms of that clock, about one per 6 chunks (of 64 KB here): code that reads on
    // without a turn holds main for the whole body (25-50 ms for 14 MB).
    expect(turns).toBeGreaterThanOrEqual(10)
  }, 60_000)
})
