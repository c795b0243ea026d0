import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createMediaCache } from '@main/core/media-cache'
import type { MediaCacheOptions } from '@main/core/media-cache'
import { fileNameFor } from '@main/core/media-cache/cache-index'
import { rangeServer, resumedAt } from '../support/range-server'
import type { RangeServer } from '../support/range-server'

/**
 * Downloads carry on from the bytes already on disk (issue 23): after a connection cut halfway, a pause
 * or a restart, the rest is asked with `Range` (and `If-Range`), a server that answers 200 instead is
 * read from zero, and the whole file is checked against its size and md5 at the end.
 */

const manualTimers = { setTimeout: () => 0, clearTimeout: () => undefined }
const key = (songId: string) => ({ sourceId: 'builtin', songId, bitrate: 320000 })
const SIZE = 400_000

let dir: string
let server: RangeServer
beforeEach(async () => {
  dir = join(mkdtempSync(join(tmpdir(), 'cadence-resume-')), 'media-cache')
  server = await rangeServer()
})
afterEach(async () => {
  await server.close()
  rmSync(join(dir, '..'), { recursive: true, force: true })
})

const open = (extra: Partial<MediaCacheOptions> = {}) =>
  createMediaCache({ dir, maxBytes: () => 10 * SIZE, timers: manualTimers, ...extra })
const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex')
const partials = () => readdirSync(dir).filter((n) => n.includes('.partial'))

describe('media cache: resuming a download', () => {
  it('carries on with a Range request when the server drops the connection halfway', async () => {
    const song = server.put('/a', SIZE)
    server.plan.push('drop')
    const cache = open()
    const file = await cache.fill(key('a'), async () => song, { pin: true })
    const asked = server.requestsFor('/a')
    expect(asked).toHaveLength(2)
    const from = resumedAt(asked[1]!.range)
    expect(from).toBeGreaterThan(0)
    expect(from).toBeLessThanOrEqual(SIZE / 2)
    expect(asked[1]!.ifRange).toBe(`"${song.md5}"`)
    expect(asked.map((s) => s.status)).toEqual([200, 206])
    // Only the rest was asked for: what came was not fetched twice.
    expect(asked[1]!.sent).toBe(SIZE - from)
    expect(md5(await readFile(file.path))).toBe(song.md5)
    expect(file.entry).toMatchObject({ size: SIZE, md5: song.md5, pinned: true })
    expect(partials()).toEqual([])
  })

  it('keeps the bytes of a paused download and asks only for the rest, even after a restart', async () => {
    const song = server.put('/a', SIZE)
    server.plan.push('hold')
    server.hold()
    const progress: number[] = []
    const first = open()
    const pause = new AbortController()
    const running = first.fill(key('a'), async () => song, {
      pin: true,
      signal: pause.signal,
      onProgress: (received) => progress.push(received),
    })
    await expect.poll(() => progress.at(-1)).toBe(SIZE / 2)
    pause.abort()
    await expect(running).rejects.toMatchObject({ reason: 'cancelled' })
    expect(partials()).toHaveLength(2) // the bytes and what the server said about them
    await first.close()

    const restarted = open()
    const resumed: number[] = []
    const file = await restarted.fill(key('a'), async () => song, {
      pin: true,
      onProgress: (received) => resumed.push(received),
    })
    expect(server.requestsFor('/a').map((s) => s.range)).toEqual([undefined, `bytes=${SIZE / 2}-`])
    expect(resumed[0]).toBeGreaterThan(SIZE / 2)
    expect(md5(await readFile(file.path))).toBe(song.md5)
    expect(partials()).toEqual([])
  })

  it('reads the whole file again when the server answers the resume with 200', async () => {
    const song = server.put('/a', SIZE)
    server.plan.push('drop', 'ignore-range')
    const cache = open()
    const file = await cache.fill(key('a'), async () => song, { pin: true })
    const asked = server.requestsFor('/a')
    expect(asked.map((s) => s.status)).toEqual([200, 200])
    expect(resumedAt(asked[1]!.range)).toBeGreaterThan(0)
    expect(md5(await readFile(file.path))).toBe(song.md5)
    expect(statSync(file.path).size).toBe(SIZE)
  })

  it('fetches whole a file that changed on the server since its first half came (If-Range)', async () => {
    const old = server.put('/a', SIZE, 1)
    server.plan.push('hold')
    server.hold()
    const cache = open()
    const pause = new AbortController()
    let received = 0
    const running = cache.fill(key('a'), async () => ({ url: old.url }), {
      pin: true,
      signal: pause.signal,
      onProgress: (n) => (received = n),
    })
    await expect.poll(() => received).toBe(SIZE / 2)
    pause.abort()
    await expect(running).rejects.toMatchObject({ reason: 'cancelled' })
    const changed = server.put('/a', SIZE, 2)
    const file = await cache.fill(key('a'), async () => ({ url: changed.url }), { pin: true })
    expect(server.requestsFor('/a').map((s) => s.status)).toEqual([200, 200])
    expect(md5(await readFile(file.path))).toBe(changed.md5)
  })

  it('checks a resumed file against its md5 and fetches it again from zero when it does not match', async () => {
    const song = server.put('/a', SIZE)
    // Bytes on disk that are not the file's (a damaged partial, no validator kept).
    const partial = join(dir, fileNameFor(key('a')) + '.partial')
    mkdirSync(dir, { recursive: true })
    writeFileSync(partial, new Uint8Array(SIZE / 4).fill(7))
    const cache = open()
    const file = await cache.fill(key('a'), async () => song, { pin: true })
    expect(server.requestsFor('/a').map((s) => s.range)).toEqual([`bytes=${SIZE / 4}-`, undefined])
    expect(md5(await readFile(file.path))).toBe(song.md5)
    expect(partials()).toEqual([])
  })

  it('gives up cleanly on a played song: nothing half kept', async () => {
    const song = server.put('/a', SIZE)
    server.plan.push('drop', 503)
    const cache = open()
    await expect(cache.fill(key('a'), async () => song)).rejects.toMatchObject({ reason: 'http' })
    expect(readdirSync(dir).filter((n) => n !== 'index.json')).toEqual([])
    expect(cache.has(key('a'))).toBe(false)
  })

  it('deletes at start the partial files no download wants', async () => {
    const a = server.put('/a', SIZE)
    const b = server.put('/b', SIZE)
    server.plan.push('drop', 503, 'drop', 503)
    const cache = open()
    await expect(cache.fill(key('a'), async () => a, { pin: true })).rejects.toBeDefined()
    await expect(cache.fill(key('b'), async () => b, { pin: true })).rejects.toBeDefined()
    expect(partials()).toHaveLength(4)
    await cache.prunePartials([key('b')])
    expect(partials().sort()).toEqual(
      [fileNameFor(key('b')) + '.partial', fileNameFor(key('b')) + '.partial.json'].sort(),
    )
  })

  it('keeps at start the partial file of a download whose key is too long for a readable name', async () => {
    const long = key('x'.repeat(300))
    expect(fileNameFor(long).startsWith('h-')).toBe(true)
    const a = server.put('/long', SIZE)
    server.plan.push('drop', 503)
    const cache = open()
    await expect(cache.fill(long, async () => a, { pin: true })).rejects.toBeDefined()
    expect(partials()).toHaveLength(2)
    await cache.prunePartials([long])
    expect(partials().sort()).toEqual(
      [fileNameFor(long) + '.partial', fileNameFor(long) + '.partial.json'].sort(),
    )
    await cache.prunePartials([])
    expect(partials()).toEqual([])
  })
})

describe('media cache: abandoning a played song nobody listens to', () => {
  it('stops the fetch and deletes its partial file; asked again, the song is fetched anew', async () => {
    const song = server.put('/a', SIZE)
    server.plan.push('hold')
    server.hold()
    const cache = open()
    const played = cache.fill(key('a'), async () => song)
    await expect.poll(() => cache.live(key('a'))?.received).toBe(SIZE / 2)
    expect(cache.abandon(key('a'))).toBe(true)
    // Asked again at once: a new fetch, which waits for the abandoned one to clear its file first.
    const again = cache.fill(key('a'), async () => song)
    await expect(played).rejects.toMatchObject({ reason: 'cancelled' })
    const file = await again
    expect(md5(await readFile(file.path))).toBe(song.md5)
    expect(server.requestsFor('/a').map((s) => s.range)).toEqual([undefined, undefined])
    expect(partials()).toEqual([])
  })

  it('leaves nothing behind when nobody asks again', async () => {
    const song = server.put('/a', SIZE)
    server.plan.push('hold')
    server.hold()
    const cache = open()
    const played = cache.fill(key('a'), async () => song)
    await expect.poll(() => cache.live(key('a'))?.received).toBe(SIZE / 2)
    cache.abandon(key('a'))
    await expect(played).rejects.toMatchObject({ reason: 'cancelled' })
    expect(readdirSync(dir).filter((n) => n !== 'index.json')).toEqual([])
    expect(cache.has(key('a'))).toBe(false)
  })

  it('never abandons a download, nor a played song a download joined', async () => {
    const a = server.put('/a', SIZE)
    const b = server.put('/b', SIZE)
    server.plan.push('hold', 'hold')
    const release = server.hold()
    const cache = open()
    const downloaded = cache.fill(key('a'), async () => a, { pin: true })
    const played = cache.fill(key('b'), async () => b)
    const joined = cache.fill(key('b'), async () => b, { pin: true })
    await expect
      .poll(() => [cache.live(key('a'))?.received, cache.live(key('b'))?.received])
      .toEqual([SIZE / 2, SIZE / 2])
    expect([cache.abandon(key('a')), cache.abandon(key('b'))]).toEqual([false, false])
    release()
    await Promise.all([downloaded, played, joined])
    expect([cache.entry(key('a'))?.pinned, cache.entry(key('b'))?.pinned]).toEqual([true, true])
  })
})
