import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { fillingDisk } from '../support/full-disk'
import { mediaServer } from '../support/media-server'
import * as fsp from 'node:fs/promises'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createMediaCache, MediaCacheError } from '@main/core/media-cache'
import type { MediaCacheOptions } from '@main/core/media-cache'

const manualTimers = { setTimeout: () => 0, clearTimeout: () => undefined }
const key = (songId: string, bitrate = 320000) => ({ sourceId: 'builtin', songId, bitrate })
const filesIn = (dir: string) => {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}

let dir: string
let clock = 1_000
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'cadence-cache-')), 'media-cache')
  clock = 1_000
})
afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }))

function open(server: ReturnType<typeof mediaServer>, extra: Partial<MediaCacheOptions> = {}) {
  return createMediaCache({
    dir,
    maxBytes: () => 10_000,
    fetch: server.fetch,
    now: () => clock++,
    // The index is written only by flush(), so a test decides when the disk changes.
    timers: manualTimers,
    ...extra,
  })
}

describe('media cache', () => {
  it('plays a song the second time from disk without a request', async () => {
    const server = mediaServer()
    const song = server.put('http://src/a', 3000)
    const cache = open(server)
    const first = await cache.fill(key('a'), async () => song)
    expect(server.requests).toHaveLength(1)
    expect((await fsp.readFile(first.path)).length).toBe(3000)
    const again = await cache.fill(key('a'), async () => song)
    expect(again.path).toBe(first.path)
    expect(server.requests).toHaveLength(1)
    expect(await cache.lookup(key('a'))).toBeDefined()
    expect(await cache.lookup(key('a', 128000))).toBeUndefined()
  })

  it('fetches a song requested twice at once only once', async () => {
    const server = mediaServer()
    const song = server.put('http://src/a', 3000)
    const cache = open(server)
    const release = server.hold()
    const one = cache.fill(key('a'), async () => song)
    const two = cache.fill(key('a'), async () => song)
    await new Promise((r) => setTimeout(r, 0))
    release()
    const [a, b] = await Promise.all([one, two])
    expect(a.path).toBe(b.path)
    expect(server.requests).toHaveLength(1)
  })

  it('fetches again a file that fails meta.size or meta.md5, and never keeps it', async () => {
    const server = mediaServer()
    const good = server.put('http://src/a', 3000)
    const origins = [{ ...good, md5: 'f'.repeat(32) }, good]
    const cache = open(server)
    const got = await cache.fill(key('a'), async () => origins.shift()!)
    expect(server.requests).toHaveLength(2)
    expect(got.entry.md5).toBe(good.md5)

    const wrong = { ...server.put('http://src/b', 2000), size: 1999 }
    await expect(cache.fill(key('b'), async () => wrong)).rejects.toMatchObject({ reason: 'corrupt' })
    expect(server.requests).toHaveLength(4)
    expect(await cache.lookup(key('b'))).toBeUndefined()
    expect(filesIn(dir).filter((n) => n.includes('.part'))).toEqual([])
    expect(filesIn(dir).filter((n) => n.endsWith('.audio'))).toHaveLength(1)
  })

  it('re-fetches a cached file that was damaged on disk', async () => {
    const server = mediaServer()
    const song = server.put('http://src/a', 3000)
    const cache = open(server)
    const { path } = await cache.fill(key('a'), async () => song)
    await fsp.writeFile(path, new Uint8Array(3000)) // same size, other bytes
    expect(await cache.lookup(key('a'))).toBeUndefined()
    const again = await cache.fill(key('a'), async () => song)
    expect(server.requests).toHaveLength(2)
    expect(
      createHash('md5')
        .update(await fsp.readFile(again.path))
        .digest('hex'),
    ).toBe(song.md5)

    // A damaged file whose mtime the damage kept is caught by the md5 check of the first read after a start.
    await cache.flush()
    const stat = await fsp.stat(again.path)
    await fsp.writeFile(again.path, new Uint8Array(3000))
    await fsp.utimes(again.path, stat.atime, stat.mtime)
    const restarted = open(server)
    expect(await restarted.lookup(key('a'))).toBeUndefined()
  })

  it('evicts the least recently played song first, never a download, and counts downloads against the cap', async () => {
    const server = mediaServer()
    const origins = Object.fromEntries(
      ['a', 'b', 'c', 'd', 'e'].map((id) => [id, server.put(`http://src/${id}`, 3000)]),
    )
    const cache = open(server)
    await cache.fill(key('a'), async () => origins.a!, { pin: true })
    await cache.fill(key('b'), async () => origins.b!)
    await cache.fill(key('c'), async () => origins.c!)
    expect(cache.usage()).toMatchObject({ cachedBytes: 6000, downloadedBytes: 3000 })
    await cache.lookup(key('b')) // b played again: c is now the least recent
    // 12,000 bytes with d would pass the 10,000 cap (the download counts): c goes, the download stays.
    await cache.fill(key('d'), async () => origins.d!)
    expect(cache.has(key('c'))).toBe(false)
    expect(cache.has(key('a'))).toBe(true)
    expect(cache.has(key('b'))).toBe(true)
    expect(cache.usage()).toMatchObject({ cachedBytes: 6000, cachedCount: 2, downloadedCount: 1 })
    expect(filesIn(dir).filter((n) => n.endsWith('.audio'))).toHaveLength(3)
    // A new download makes room too: b, the least recently played, goes.
    await cache.fill(key('e'), async () => origins.e!, { pin: true })
    expect([cache.has(key('b')), cache.has(key('d')), cache.has(key('e'))]).toEqual([false, true, true])
    expect(cache.usage()).toMatchObject({ cachedBytes: 3000, downloadedBytes: 6000 })

    const cleared = await cache.clear()
    expect(cleared).toMatchObject({ cachedBytes: 0, cachedCount: 0, downloadedCount: 2 })
    expect(await cache.lookup(key('a'))).toBeDefined()
  })

  it('applies a lowered cap at once, and a removed download becomes evictable', async () => {
    const server = mediaServer()
    let cap = 10_000
    const cache = open(server, { maxBytes: () => cap })
    for (const id of ['c', 'a', 'b'])
      await cache.fill(key(id), async () => server.put(`http://src/${id}`, 3000))
    await cache.pin(key('c'))
    cap = 6000
    await cache.enforceCap()
    // The download counts: one played song fits beside it, the older one went.
    expect([cache.has(key('a')), cache.has(key('b')), cache.has(key('c'))]).toEqual([false, true, true])
    await cache.pin(key('c'), false) // the download is removed: now it is the least recently played song
    cap = 3000
    await cache.enforceCap()
    expect([cache.has(key('b')), cache.has(key('c'))]).toEqual([true, false])
    expect(cache.usage()).toMatchObject({ cachedBytes: 3000, downloadedBytes: 0 })
  })

  it('counts the played songs being fetched against the cap: a burst of first plays does not pass it', async () => {
    const server = mediaServer()
    const cache = open(server)
    for (const id of ['a', 'b', 'c'])
      await cache.fill(key(id), async () => server.put(`http://src/${id}`, 3000))
    const release = server.hold()
    const d = cache.fill(key('d'), async () => server.put('http://src/d', 3000))
    const e = cache.fill(key('e'), async () => server.put('http://src/e', 3000))
    await expect
      .poll(() => [cache.live(key('d'))?.received, cache.live(key('e'))?.received])
      .toEqual([1500, 1500])
    // Two songs of 3000 bytes on their way: the files kept make room for both before they land.
    expect(cache.usage().cachedBytes).toBe(3000)
    expect([cache.has(key('a')), cache.has(key('b')), cache.has(key('c'))]).toEqual([false, false, true])
    release()
    await Promise.all([d, e])
    expect(cache.usage()).toMatchObject({ cachedBytes: 9000, cachedCount: 3 })
  })

  it('does not cache a played song larger than the whole cap', async () => {
    const server = mediaServer()
    const big = server.put('http://src/big', 20_000)
    const cache = open(server)
    await expect(cache.fill(key('big'), async () => big)).rejects.toMatchObject({ reason: 'too-large' })
    await expect(cache.fill(key('big'), async () => ({ url: big.url }))).rejects.toMatchObject({
      reason: 'too-large',
    })
    expect(filesIn(dir).filter((n) => n !== 'index.json')).toEqual([])
    // As a download it is kept.
    await cache.fill(key('big'), async () => big, { pin: true })
    expect(cache.usage().downloadedBytes).toBe(20_000)
  })

  it('keeps a song larger than the cap when a download joins its played copy', async () => {
    const server = mediaServer()
    const big = server.put('http://src/big', 20_000)
    const cache = open(server)
    // Played (capped), and downloaded at once: one fetch, kept as a download.
    const played = cache.fill(key('big'), async () => ({ url: big.url }))
    const downloaded = cache.fill(key('big'), async () => ({ url: big.url }), { pin: true })
    const [a, b] = await Promise.all([played, downloaded])
    expect(a.path).toBe(b.path)
    expect(server.requests).toHaveLength(1)
    expect(cache.usage()).toMatchObject({ downloadedBytes: 20_000, cachedBytes: 0 })
  })

  it('keeps its index across a restart, and rebuilds a damaged one from the folder', async () => {
    const server = mediaServer()
    const a = server.put('http://src/a', 1000)
    const b = server.put('http://src/b', 2000)
    const cache = open(server)
    await cache.fill(key('a'), async () => a, { pin: true })
    await cache.fill(key('b'), async () => b)
    await cache.flush()
    await fsp.writeFile(join(dir, 'leftover.part'), 'half')

    const restarted = open(server)
    expect(await restarted.lookup(key('a'))).toBeDefined()
    expect(restarted.usage()).toMatchObject({ cachedBytes: 2000, downloadedBytes: 1000 })
    expect(filesIn(dir)).not.toContain('leftover.part')

    await fsp.writeFile(join(dir, 'index.json'), '{"entries": [1, 2, {')
    await fsp.writeFile(join(dir, 'not-ours.audio'), 'junk')
    const rebuilt = open(server)
    expect(await rebuilt.lookup(key('b'))).toBeDefined()
    expect(rebuilt.usage()).toMatchObject({ cachedCount: 2, cachedBytes: 3000 })
    expect(filesIn(dir)).not.toContain('not-ours.audio')
    expect(server.requests).toHaveLength(2)
  })

  it('carries on when its folder is deleted while running', async () => {
    const server = mediaServer()
    const a = server.put('http://src/a', 1000)
    const b = server.put('http://src/b', 1000)
    const cache = open(server)
    await cache.fill(key('a'), async () => a)
    await cache.fill(key('b'), async () => b)
    await fsp.rm(dir, { recursive: true })
    expect(await cache.lookup(key('a'))).toBeUndefined()
    expect(cache.usage().cachedCount).toBe(0)
    await cache.fill(key('b'), async () => b)
    expect(await cache.lookup(key('b'))).toBeDefined()
    await cache.flush()
    expect(filesIn(dir)).toContain('index.json')
  })

  it('stops at a full disk (injected ENOSPC): no partial file, the cache shrinks', async () => {
    const server = mediaServer()
    const disk = fillingDisk(6000)
    const cache = open(server, { fs: disk.fs })
    for (const id of ['a', 'b']) await cache.fill(key(id), async () => server.put(`http://src/${id}`, 2000))
    const error = await cache
      .fill(key('c'), async () => server.put('http://src/c', 4000), { pin: true })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MediaCacheError)
    expect((error as MediaCacheError).reason).toBe('disk-full')
    expect(filesIn(dir).filter((n) => n.includes('.part'))).toEqual([])
    expect(cache.has(key('c'))).toBe(false)
    expect(cache.usage().cachedBytes).toBeLessThanOrEqual(2000)
  })
})

// A real full disk: a 1 MiB tmpfs (needs root to mount; this machine's tests run as root).
const tmpfs = (() => {
  if (process.getuid?.() !== 0) return undefined
  const mount = mkdtempSync(join(tmpdir(), 'cadence-tmpfs-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mount], { stdio: 'ignore' })
    return mount
  } catch {
    rmSync(mount, { recursive: true, force: true })
    return undefined
  }
})()

describe.skipIf(!tmpfs)('media cache on a full tmpfs', () => {
  afterEach(() => {
    if (!tmpfs) return
    for (const name of readdirSync(tmpfs)) rmSync(join(tmpfs, name), { recursive: true, force: true })
  })
  it('leaves no partial file when the disk fills during a download', async () => {
    const server = mediaServer()
    const cacheDir = join(tmpfs!, 'media-cache')
    const cache = createMediaCache({
      dir: cacheDir,
      maxBytes: () => 10 * 1024 ** 2,
      fetch: server.fetch,
      timers: manualTimers,
      // The write itself fails (ENOSPC): no free space is kept back here.
      limits: { reserveBytes: 0 },
    })
    const small = server.put('http://src/small', 300_000)
    await cache.fill(key('small'), async () => small)
    const big = server.put('http://src/big', 2 * 1024 ** 2)
    await expect(cache.fill(key('big'), async () => big, { pin: true })).rejects.toMatchObject({
      reason: 'disk-full',
    })
    expect(filesIn(cacheDir).filter((n) => n.includes('.part') || n.endsWith('.audio'))).toEqual([])
    expect(cache.usage()).toMatchObject({ cachedBytes: 0, downloadedBytes: 0 })
    // Once there is room again, it works.
    const fits = server.put('http://src/fits', 200_000)
    await cache.fill(key('fits'), async () => fits, { pin: true })
    expect(cache.usage().downloadedBytes).toBe(200_000)
  })
})

afterAll(() => {
  if (!tmpfs) return
  execFileSync('umount', [tmpfs], { stdio: 'ignore' })
  rmSync(tmpfs, { recursive: true, force: true })
})
