import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestCore, invokeOk } from '../support/test-core'
import type { CoreDeps } from '@main/core'
import type { CollectionSong, DownloadRow, DownloadsPage, DownloadsSummary } from '@shared/ipc/contract'

/**
 * Issue 33, item 2, as a hostile data source would act: `/song/detail` describes a song whose media never
 * ends (no `meta.size`), lies about its size, stalls, trickles, or is bigger than the disk has room for;
 * its cover never ends. Main writes at most the cap, stops on the deadlines, leaves no partial file behind
 * and keeps its memory.
 */

const MIB = 1024 * 1024
/** What the disk keeps free in these tests (the default reserve). */
const RESERVE = 1024 * MIB
const CHUNK = Buffer.alloc(64 * 1024, 0x55)
/** What an endless answer sends at most before it ends by itself (so the old code's test ends too). */
const MEDIA_SAFETY_BYTES = 64 * MIB
const COVER_SAFETY_BYTES = 256 * MIB

interface HostileSong {
  path: string
  size?: number
  duration?: number
}

/** The hostile data source on 127.0.0.1: every answer of its media routes is counted, byte by byte. */
async function startHostileSource() {
  const songs = new Map<string, HostileSong>()
  /** Per media path: bytes written before each answer closed, and how many requests came. */
  const sent = new Map<string, number[]>()
  const requests = new Map<string, number>()
  let base = ''
  const record = (path: string, bytes: number) => sent.set(path, [...(sent.get(path) ?? []), bytes])
  const json = (res: ServerResponse, body: unknown, status = 200) =>
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body))
  const ok = (data: unknown) => ({ code: 0, message: 'Success', data })

  /** Writes until the client hangs up (or `safety` bytes went out), honouring backpressure. */
  const endless = (res: ServerResponse, path: string, type: string, safety: number) => {
    res.writeHead(200, { 'Content-Type': type })
    let bytes = 0
    let closed = false
    res.on('close', () => {
      closed = true
      record(path, bytes)
    })
    const pump = () => {
      while (!closed && bytes < safety) {
        bytes += CHUNK.length
        if (!res.write(CHUNK)) return void res.once('drain', pump)
      }
      if (!closed) res.end()
    }
    pump()
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x')
    requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1)
    switch (url.pathname) {
      case '/connect/qr/key':
        return json(res, ok({ unikey: 'k' }))
      case '/connect/status':
        return json(res, { code: -1, message: 'Please log in first', data: null }, 401)
      case '/song/detail': {
        const id = url.searchParams.get('id') ?? ''
        const song = songs.get(id)
        if (!song) return json(res, { code: -1, message: 'Not found', data: null }, 404)
        return json(
          res,
          ok({
            id: Number(id),
            name: `Song ${id}`,
            tns: [],
            artists: [{ id: 1, name: 'Artist' }],
            album: { id: 1, name: 'Album' },
            duration: song.duration,
            privilege: { playable: true, bitrates: [320000], maxBitrate: 320000 },
            meta: { url: `${base}${song.path}`, size: song.size, bitrate: 320000 },
          }),
        )
      }
      case '/media/endless':
        return endless(res, url.pathname, 'audio/mpeg', MEDIA_SAFETY_BYTES)
      case '/media/endless-too':
        return endless(res, url.pathname, 'audio/mpeg', MEDIA_SAFETY_BYTES)
      case '/media/stall': {
        // The headers and 64 KB, then nothing, ever.
        res.writeHead(200, { 'Content-Type': 'audio/mpeg', 'Content-Length': String(4 * MIB) })
        res.write(CHUNK)
        res.on('close', () => record(url.pathname, CHUNK.length))
        return
      }
      case '/media/trickle': {
        // 1 KB every 100 ms: never idle long, never done (1 MiB would take 100 s).
        res.writeHead(200, { 'Content-Type': 'audio/mpeg', 'Content-Length': String(MIB) })
        let bytes = 0
        const timer = setInterval(() => {
          bytes += 1024
          res.write(CHUNK.subarray(0, 1024))
        }, 100)
        res.on('close', () => {
          clearInterval(timer)
          record(url.pathname, bytes)
        })
        return
      }
      case '/cover/endless':
        return endless(res, url.pathname, 'image/png', COVER_SAFETY_BYTES)
      default:
        return json(res, { code: -1, message: 'Not found', data: null }, 404)
    }
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no address')
  base = `http://127.0.0.1:${address.port}`
  return {
    url: base,
    songs,
    requests: (path: string) => requests.get(path) ?? 0,
    /** Bytes written for each answer of `path` that has closed. */
    sent: (path: string) => sent.get(path) ?? [],
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  }
}

const row = (id: number): CollectionSong => ({
  id,
  name: `Song ${id}`,
  tns: [],
  artists: [{ id: 1, name: 'Artist' }],
  duration: 240_000,
})

const rss = () => process.memoryUsage().rss

describe('downloads from a hostile data source', { timeout: 90_000 }, () => {
  let source: Awaited<ReturnType<typeof startHostileSource>>
  const cleanups: Array<() => Promise<unknown> | unknown> = []

  beforeAll(async () => {
    source = await startHostileSource()
  })
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  afterAll(async () => {
    await source?.close()
  })

  /** A core with the hostile source added and active (not signed in: it needs no login). */
  async function app(extra: Partial<CoreDeps> = {}) {
    const mediaDir = await mkdtemp(join(tmpdir(), 'cadence-hostile-media-'))
    const core = createTestCore({
      autoSignInBuiltin: false,
      probeSources: false,
      timeoutMs: 10_000,
      mediaDir,
      ...extra,
    })
    cleanups.push(async () => {
      core.dispose()
      await core.offline.cache.close()
      await rm(mediaDir, { recursive: true, force: true })
    })
    const invoke = <T>(channel: string, args?: unknown) => invokeOk<T>(core, channel, args)
    const added = await invoke<{ id: string }>('sources:add', { url: source.url })
    await invoke('sources:activate', { id: added.id })
    await core.offline.downloads.started
    const rowOf = async (id: number): Promise<DownloadRow | undefined> => {
      const page = await invoke<DownloadsPage>('downloads:list', { offset: 0, limit: 100 })
      return page.rows.find((r) => String(r.song.id) === String(id))
    }
    /** Files left in the media folder that are not complete songs or the index. */
    const partials = async () =>
      (await readdir(mediaDir).catch(() => [] as string[])).filter((name) => name.includes('.partial'))
    return { core, invoke, rowOf, partials, mediaDir, sourceId: added.id }
  }

  it('stops a download of an endless song without a size at the cap, fails it with the reason and keeps nothing', async () => {
    const cap = 16 * MIB
    source.songs.set('1', { path: '/media/endless', duration: 240_000 })
    const { invoke, rowOf, partials, core, sourceId } = await app({ mediaLimits: { unsizedMaxBytes: cap } })
    const before = rss()
    await invoke('downloads:add', { songs: [row(1)] })
    await vi.waitFor(async () => expect((await rowOf(1))?.state).toBe('failed'), { timeout: 60_000 })
    const failed = await rowOf(1)
    expect(failed?.error).toMatch(/did not say how large/)
    // One request: refused for good, not tried again.
    expect(source.requests('/media/endless')).toBe(1)
    await vi.waitFor(() => expect(source.sent('/media/endless')).toHaveLength(1), { timeout: 20_000 })
    const [sent] = source.sent('/media/endless')
    // What got out before main hung up: the cap and what the sockets' buffers held.
    expect(sent).toBeGreaterThan(cap)
    expect(sent).toBeLessThan(cap + 8 * MIB)
    expect(await partials()).toEqual([])
    expect(core.offline.cache.has({ sourceId, songId: '1', bitrate: 320000 })).toBe(false)
    const grown = rss() - before
    console.log(
      `endless download: ${(sent! / MIB).toFixed(1)} MiB sent, rss grew ${(grown / MIB).toFixed(1)} MiB`,
    )
    expect(grown).toBeLessThan(100 * MIB)
  })

  it('stops a download at its declared size when the source sends more', async () => {
    source.songs.set('2', { path: '/media/endless-too', size: 2 * MIB, duration: 240_000 })
    const { invoke, rowOf, partials } = await app()
    await invoke('downloads:add', { songs: [row(2)] })
    await vi.waitFor(async () => expect((await rowOf(2))?.state).toBe('failed'), { timeout: 60_000 })
    expect((await rowOf(2))?.error).toMatch(/size/)
    await vi.waitFor(() => expect(source.sent('/media/endless-too').length).toBeGreaterThan(0))
    for (const bytes of source.sent('/media/endless-too')) expect(bytes).toBeLessThan(2 * MIB + 8 * MIB)
    expect(await partials()).toEqual([])
  })

  it('gives up on a body that stalls (the idle deadline)', async () => {
    source.songs.set('3', { path: '/media/stall', size: 4 * MIB, duration: 240_000 })
    // A short idle deadline so the test does not wait: 1 s without a byte.
    const { invoke, rowOf } = await app({ mediaLimits: { idleMs: 1000 } })
    await invoke('downloads:add', { songs: [row(3)] })
    // Waiting for its next try (2 s later, from the bytes it has), with the reason.
    await vi.waitFor(
      async () => {
        const stalled = await rowOf(3)
        expect(stalled?.state).toBe('waiting')
        expect(stalled?.error).toMatch(/The audio stalled: nothing came for 1 s/)
      },
      { timeout: 30_000, interval: 50 },
    )
    // Main hung up (the server saw the connection close).
    await vi.waitFor(() => expect(source.sent('/media/stall').length).toBeGreaterThan(0), { timeout: 10_000 })
  })

  it('gives up on a body that trickles in (the total deadline)', async () => {
    source.songs.set('4', { path: '/media/trickle', size: MIB, duration: 240_000 })
    const { invoke, rowOf } = await app({
      // The whole file within 3 s (a byte comes every 100 ms, far within the idle deadline).
      mediaLimits: { idleMs: 20_000, totalBaseMs: 3000, minBytesPerSecond: Number.MAX_SAFE_INTEGER },
    })
    await invoke('downloads:add', { songs: [row(4)] })
    await vi.waitFor(
      async () => {
        const trickled = await rowOf(4)
        expect(trickled?.state).toBe('waiting')
        expect(trickled?.error).toMatch(/The audio took longer than 3 s to arrive/)
      },
      { timeout: 30_000, interval: 50 },
    )
    await vi.waitFor(() => expect(source.sent('/media/trickle').length).toBeGreaterThan(0), {
      timeout: 10_000,
    })
    // It had come 1 KB at a time: far less than the file when it was stopped.
    expect(source.sent('/media/trickle')[0]).toBeLessThan(MIB)
  })

  it('refuses a download the disk has no room for before asking for a byte', async () => {
    source.songs.set('5', { path: '/media/endless', size: 600 * MIB, duration: 240_000 })
    const requestsBefore = source.requests('/media/endless')
    // 1.5 GiB free; the song would leave less than the 1 GiB Cadence keeps free.
    const free = RESERVE + 512 * MIB
    const { invoke, rowOf, partials } = await app({
      mediaLimits: { reserveBytes: RESERVE },
      freeSpace: async () => free,
    })
    const summary = await invoke<DownloadsSummary>('downloads:add', { songs: [row(5)] })
    expect(summary.total).toBe(1)
    await vi.waitFor(
      async () => expect((await invoke<DownloadsSummary>('downloads:summary')).paused).toBe(true),
      {
        timeout: 30_000,
      },
    )
    expect((await invoke<DownloadsSummary>('downloads:summary')).message).toMatch(/space/)
    expect((await rowOf(5))?.state).toBe('queued')
    expect(source.requests('/media/endless')).toBe(requestsBefore)
    expect(await partials()).toEqual([])
  })

  it('stops a download when the free space runs low while it arrives', async () => {
    source.songs.set('6', { path: '/media/endless', duration: 240_000 })
    let written = 0
    const sentBefore = source.sent('/media/endless').length
    // The disk has 8 MiB above the reserve, and the song takes it up as it arrives.
    const { invoke, partials, mediaDir } = await app({
      mediaLimits: { unsizedMaxBytes: 48 * MIB, reserveBytes: RESERVE },
      freeSpace: async () => {
        const names = await readdir(mediaDir).catch(() => [] as string[])
        const { stat } = await import('node:fs/promises')
        written = 0
        for (const name of names)
          if (name.endsWith('.partial')) written += (await stat(join(mediaDir, name))).size
        return RESERVE + 8 * MIB - written
      },
    })
    await invoke('downloads:add', { songs: [row(6)] })
    await vi.waitFor(
      async () => expect((await invoke<DownloadsSummary>('downloads:summary')).paused).toBe(true),
      {
        timeout: 30_000,
      },
    )
    expect((await invoke<DownloadsSummary>('downloads:summary')).message).toMatch(/space|full/)
    await vi.waitFor(() => expect(source.sent('/media/endless').length).toBe(sentBefore + 1), {
      timeout: 20_000,
    })
    expect(source.sent('/media/endless').at(-1)).toBeLessThan(8 * MIB + 16 * MIB)
    expect(await partials()).toEqual([])
  })

  it('copies a played endless song into the cache no further than the cap, and keeps none of it', async () => {
    const cap = 16 * MIB
    source.songs.set('7', { path: '/media/endless', duration: 240_000 })
    const sentBefore = source.sent('/media/endless').length
    const { core, invoke, partials, sourceId } = await app({ mediaLimits: { unsizedMaxBytes: cap } })
    const key = { sourceId, songId: '7', bitrate: 320000 }
    const resolved = await invoke<{ meta?: { url?: string } }>('player:resolve', { id: 7, br: 320000 })
    const answer = await core.media(new Request(resolved.meta!.url!))
    expect(answer.status).toBe(200)
    // The player reads a little and keeps listening (the copy carries on while someone reads it).
    const reader = answer.body!.getReader()
    await reader.read()
    await vi.waitFor(() => expect(core.offline.cache.live(key)).toBeUndefined(), { timeout: 60_000 })
    await reader.cancel()
    expect(core.offline.cache.has(key)).toBe(false)
    expect(await partials()).toEqual([])
    await vi.waitFor(() => expect(source.sent('/media/endless').length).toBeGreaterThan(sentBefore), {
      timeout: 20_000,
    })
    // The copy's answer: cut at the cap (the player's own stream, if any, is not written anywhere).
    expect(Math.min(...source.sent('/media/endless').slice(sentBefore))).toBeLessThan(cap + 8 * MIB)
  })

  it('reads a notification cover that never ends no further than its cap', async () => {
    const shown: Array<{ icon?: Uint8Array }> = []
    const { invoke } = await app({
      listen: {
        notifier: { supported: () => true, appFocused: () => false, show: (n) => void shown.push(n) },
      },
    })
    await invoke('settings:update', { notifyTrackChange: true })
    const before = rss()
    await invoke('notify:track-changed', {
      id: 8,
      name: 'Song 8',
      artists: 'Artist',
      cover: `${source.url}/cover/endless`,
    })
    expect(shown).toHaveLength(1)
    expect(shown[0]!.icon).toBeUndefined()
    await vi.waitFor(() => expect(source.sent('/cover/endless')).toHaveLength(1), { timeout: 20_000 })
    const [sent] = source.sent('/cover/endless')
    const grown = rss() - before
    console.log(
      `endless cover: ${(sent! / MIB).toFixed(1)} MiB sent, rss grew ${(grown / MIB).toFixed(1)} MiB`,
    )
    expect(sent).toBeLessThan(2 * MIB + 8 * MIB)
    expect(grown).toBeLessThan(100 * MIB)
  })
})
