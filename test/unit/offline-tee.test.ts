import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Song } from '@shared/api/models'
import { silentLogger } from '@main/core/log'
import { createNetworkSource } from '@main/core/media'
import type { MediaSource } from '@main/core/media'
import { createMediaCache } from '@main/core/media-cache'
import { createCachedSource } from '@main/core/media/cached-source'
import { createPlayedCopies } from '@main/core/media/played-copies'
import { realTimers } from '@main/core/ports'
import { rangeServer, resumedAt } from '../support/range-server'
import type { RangeServer } from '../support/range-server'

/**
 * The first play of a song fetches its file once (issue 23): the media scheme copies it into the cache
 * and serves the player's ranges from that copy as it arrives. Counted at the data source's media server.
 */

const SIZE = 1024 * 1024
const ref = { sourceId: 'builtin', songId: '7', br: 320000 }
const key = { sourceId: 'builtin', songId: '7', bitrate: 320000 }
const manualTimers = { setTimeout: () => 0, clearTimeout: () => undefined }
const until = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 5 })

let dir: string
let server: RangeServer
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cadence-tee-'))
  server = await rangeServer()
})
afterEach(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Timers a test fires by hand (the copies' graces). */
function handTimers() {
  const pending = new Map<number, () => void>()
  let next = 0
  return {
    setTimeout: (callback: () => void) => {
      pending.set(++next, callback)
      return next
    },
    clearTimeout: (handle: unknown) => void pending.delete(handle as number),
    /** Runs the timers set so far. */
    fire() {
      const due = [...pending.values()]
      pending.clear()
      for (const callback of due) callback()
    },
  }
}

interface Setup {
  /** The size of each song's file. */
  size?: number
  /** Songs besides '7' (ids). */
  songs?: string[]
}

function setup({ size = SIZE, songs = [] }: Setup = {}) {
  const origins = new Map(['7', ...songs].map((id) => [id, server.put(`/song/${id}`, size)]))
  const origin = origins.get('7')!
  const detailOf = (id: string): Song => ({
    id: Number(id),
    name: `Song ${id}`,
    tns: [],
    artists: [],
    album: undefined,
    duration: undefined,
    privilege: undefined,
    meta: {
      url: origins.get(id)!.url,
      size,
      md5: origins.get(id)!.md5,
      bitrate: 320000,
      isFavorite: undefined,
      lyric: undefined,
    },
  })
  const cache = createMediaCache({ dir, maxBytes: () => 100 * size, timers: manualTimers })
  const network = createNetworkSource({ resolve: async (r) => origins.get(r.songId)!.url })
  const clock = { now: 1_000_000 }
  const timers = handTimers()
  const told = { cached: 0 }
  const copies = createPlayedCopies({
    cache,
    detail: async (k) => detailOf(k.songId),
    activeSourceId: () => 'builtin',
    keep: async () => undefined,
    onCached: () => told.cached++,
    now: () => clock.now,
    timers,
    log: silentLogger('media-cache'),
  })
  const source = createCachedSource({
    inner: network,
    playable: (k) => cache.lookup(k),
    fill: copies.fill,
    isOffline: () => false,
    log: silentLogger('media-cache'),
    timers: realTimers,
  })
  return { origin, origins, cache, source, copies, clock, timers, told }
}

/** One range as the renderer asks it, read whole. */
async function get(source: MediaSource, range?: string, songId = '7') {
  const answer = await source.open({ ...ref, songId }, { method: 'GET', range })
  return { status: answer.status, headers: answer.headers, bytes: new Uint8Array(await answer.arrayBuffer()) }
}

/**
 * A play as the renderer's output does it: the WAV header's 64 KB, then chunks from byte 44 to the end,
 * each read on from where the last answer ended (a copy still arriving answers as far as it has come).
 */
async function play(source: MediaSource, chunk = 200_000) {
  const head = await get(source, 'bytes=0-65535')
  expect(head.status).toBe(206)
  expect(head.headers.get('content-range')).toBe(`bytes 0-65535/${SIZE}`)
  const parts = [head.bytes.subarray(0, 44)]
  for (let start = 44; start < SIZE;) {
    const part = (await get(source, `bytes=${start}-${Math.min(SIZE, start + chunk) - 1}`)).bytes
    expect(part.byteLength).toBeGreaterThan(0)
    parts.push(part)
    start += part.byteLength
  }
  return Buffer.concat(parts)
}

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex')

describe('media scheme: the first play copies the song into the cache with the one fetch it makes', () => {
  it('serves the player from the copy as it arrives: one request the first time, none the second', async () => {
    const t = setup()
    server.plan.push('hold')
    const release = server.hold()
    const head = await get(t.source, 'bytes=0-65535') // in the half that came
    expect(head.bytes).toEqual(t.origin.bytes.subarray(0, 65536))
    await until(() => expect(t.cache.live(key)?.received).toBe(SIZE / 2))
    // A range past what came waits for the copy, which the server then finishes.
    const pending = get(t.source, `bytes=${SIZE / 2 - 1000}-${SIZE / 2 + 999}`)
    release()
    expect((await pending).bytes).toEqual(t.origin.bytes.subarray(SIZE / 2 - 1000, SIZE / 2 + 1000))
    expect(md5(await play(t.source))).toBe(t.origin.md5)
    expect(server.served.map((s) => s.range)).toEqual([undefined])

    await until(() => expect(t.cache.has(key)).toBe(true))
    expect(md5(await play(t.source))).toBe(t.origin.md5)
    expect(server.served).toHaveLength(1)
    // The badges are told once for the copy, not once for each of the ranges that read it.
    expect(t.told.cached).toBe(1)
    const file = await t.cache.lookup(key)
    expect(md5(await readFile(file!.path))).toBe(t.origin.md5)
  })

  it('answers requests made at once, ranged or whole, from one fetch', async () => {
    const t = setup()
    const [head, first, whole] = await Promise.all([
      get(t.source, 'bytes=0-65535'),
      get(t.source, 'bytes=44-10043'),
      get(t.source),
    ])
    expect(server.served).toHaveLength(1)
    expect(head.bytes).toEqual(t.origin.bytes.subarray(0, 65536))
    expect(first.bytes).toEqual(t.origin.bytes.subarray(44, 10044))
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-length')).toBe(String(SIZE))
    expect(md5(whole.bytes)).toBe(t.origin.md5)
  })

  it('serves a seek ahead of the copy with its own ranged request; the copy completes by itself', async () => {
    const t = setup()
    server.plan.push('hold')
    const release = server.hold()
    await get(t.source, 'bytes=0-65535')
    const far = await get(t.source, `bytes=${SIZE - 100_000}-${SIZE - 1}`)
    expect(far.bytes).toEqual(t.origin.bytes.subarray(SIZE - 100_000))
    expect(server.served.map((s) => [s.range, s.status])).toEqual([
      [undefined, 200],
      [`bytes=${SIZE - 100_000}-${SIZE - 1}`, 206],
    ])
    release()
    await until(() => expect(t.cache.has(key)).toBe(true))
    expect(md5(await readFile((await t.cache.lookup(key))!.path))).toBe(t.origin.md5)
  })

  it('carries on when the connection drops halfway: the copy asks for the rest, the player never notices', async () => {
    const t = setup()
    server.plan.push('drop')
    expect(md5(await play(t.source))).toBe(t.origin.md5)
    await until(() => expect(t.cache.has(key)).toBe(true))
    expect(server.served.map((s) => s.status)).toEqual([200, 206])
    expect(server.served[1]!.sent).toBe(SIZE - resumedAt(server.served[1]!.range))
  })

  it('gives up cleanly when the copy cannot finish: the rest comes from the network, nothing half kept', async () => {
    const t = setup()
    // Half comes, then the connection is cut, and the copy's request for the rest fails.
    server.plan.push('hold-drop', 503)
    const release = server.hold()
    await get(t.source, 'bytes=0-65535')
    // A range across the point where the copy stops, asked while it waits there (once it is there: asked
    // earlier, the range starts too far past what has arrived and is a seek the network serves).
    await until(() => expect(t.cache.live(key)?.received).toBe(SIZE / 2))
    const across = get(t.source, `bytes=${SIZE / 2 - 5000}-${SIZE / 2 + 4999}`)
    release()
    // Answered as far as the copy came (should the source be gone, the player has every byte that came)…
    const first = await across
    expect(first.headers.get('content-range')).toBe(`bytes ${SIZE / 2 - 5000}-${SIZE / 2 - 1}/${SIZE}`)
    expect(first.bytes).toEqual(t.origin.bytes.subarray(SIZE / 2 - 5000, SIZE / 2))
    // …and the rest, asked next, from the network.
    const rest2 = await get(t.source, `bytes=${SIZE / 2}-${SIZE / 2 + 4999}`)
    expect(rest2.bytes).toEqual(t.origin.bytes.subarray(SIZE / 2, SIZE / 2 + 5000))
    // The copy asked for the rest and failed; both ranges came from the network, from where the copy's
    // bytes could no longer be read (its partial file is gone: nothing half kept).
    const [copy, rest, network, next] = server.served
    expect([copy!.status, rest!.status]).toEqual([200, 503])
    expect(resumedAt(rest!.range)).toBeGreaterThan(0)
    expect([network!.range, network!.status]).toEqual([`bytes=${SIZE / 2 - 5000}-${SIZE / 2 - 1}`, 206])
    expect([next!.range, next!.status]).toEqual([`bytes=${SIZE / 2}-${SIZE / 2 + 4999}`, 206])
    expect(t.cache.has(key)).toBe(false)
    expect(readdirSync(dir).filter((n) => n !== 'index.json')).toEqual([])
    // Meanwhile the song streams from the network, without a new copy for every range.
    expect(md5(await play(t.source))).toBe(t.origin.md5)
    expect(server.served.slice(4).every((s) => s.status === 206 && s.range)).toBe(true)
    expect(t.cache.has(key)).toBe(false)
  })
})

describe('media scheme: the copy of a song nobody listens to stops', () => {
  /** 8 MiB: half of it in is neither three quarters nor within 2 MiB of the end. */
  const BIG = 8 * 1024 * 1024
  const key8 = { ...key, songId: '8' }
  const key9 = { ...key, songId: '9' }
  const partials = () => readdirSync(dir).filter((n) => n.includes('.partial'))

  it('stops the copy of a song skipped after a few seconds and deletes its partial file', async () => {
    const t = setup({ size: BIG })
    server.plan.push('hold')
    server.hold()
    t.copies.playing('7')
    await get(t.source, 'bytes=0-65535')
    await until(() => expect(t.cache.live(key)?.received).toBe(BIG / 2))
    t.clock.now += 3000
    t.timers.fire() // nothing is due while the player has the song, even unread
    expect(t.cache.live(key)?.state).toBe('running')

    t.copies.playing('8') // skipped
    t.clock.now += 4999
    t.timers.fire()
    expect(t.cache.live(key)?.state).toBe('running') // within its grace
    t.clock.now += 1
    t.timers.fire()
    await until(() => expect(t.cache.live(key)).toBeUndefined())
    expect(partials()).toEqual([])
    expect(t.cache.has(key)).toBe(false)
    expect(server.served).toHaveLength(1)

    // Played again: a new copy at once (stopping it was no failure).
    t.copies.playing('7')
    expect((await get(t.source, 'bytes=0-65535')).bytes).toEqual(t.origin.bytes.subarray(0, 65536))
    await until(() => expect(t.cache.has(key)).toBe(true))
    expect(server.served.map((s) => [s.range, s.status])).toEqual([
      [undefined, 200],
      [undefined, 200],
    ])
  })

  it('keeps the copy when the song is read again within its grace (a seek back, Previous)', async () => {
    const t = setup({ size: BIG })
    server.plan.push('hold')
    const release = server.hold()
    t.copies.playing('7')
    await get(t.source, 'bytes=0-65535')
    await until(() => expect(t.cache.live(key)?.received).toBe(BIG / 2))
    t.copies.playing('8')
    t.clock.now += 2000
    t.copies.playing('7')
    const read = get(t.source, 'bytes=1000000-1099999')
    t.clock.now += 10_000
    t.timers.fire()
    expect((await read).bytes).toEqual(t.origin.bytes.subarray(1_000_000, 1_100_000))
    release()
    await until(() => expect(t.cache.has(key)).toBe(true))
    expect(server.served).toHaveLength(1)
  })

  it('lets a copy that is nearly done finish after the player left it', async () => {
    const t = setup() // 1 MiB: half of it in leaves less than 2 MiB to come
    server.plan.push('hold')
    const release = server.hold()
    t.copies.playing('7')
    await get(t.source, 'bytes=0-65535')
    await until(() => expect(t.cache.live(key)?.received).toBe(SIZE / 2))
    t.copies.playing('8')
    t.clock.now += 60_000
    t.timers.fire()
    expect(t.cache.live(key)?.state).toBe('running')
    release()
    await until(() => expect(t.cache.has(key)).toBe(true))
  })

  it('copies two songs at once: a third stops the one unread the longest', async () => {
    const t = setup({ size: BIG, songs: ['8', '9'] })
    server.plan.push('hold', 'hold', 'hold')
    const release = server.hold()
    // Three songs opened one after the other (a burst of skips, or the next songs read ahead).
    for (const [id, k] of [
      ['7', key],
      ['8', key8],
      ['9', key9],
    ] as const) {
      await get(t.source, 'bytes=0-65535', id)
      await until(() => expect(t.cache.live(k)?.received).toBe(BIG / 2))
      t.clock.now += 1000
    }
    await until(() => expect(t.cache.live(key)).toBeUndefined())
    expect(partials().filter((n) => !n.endsWith('.json'))).toHaveLength(2)
    release()
    await until(() => expect([t.cache.has(key8), t.cache.has(key9)]).toEqual([true, true]))
    expect(t.cache.has(key)).toBe(false)
  })
})
