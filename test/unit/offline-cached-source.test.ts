import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createCachedSource,
  fileResponse,
  NOT_OFFLINE_MEDIA,
  parseRange,
} from '@main/core/media/cached-source'
import { READ_AT_ONCE_BYTES } from '@main/core/media/file-response'
import { MediaError } from '@main/core/media'
import type { CacheKey, CachedFile } from '@main/core/media-cache'
import { silentLogger } from '@main/core/log'

const ref = { sourceId: 'builtin', songId: '7', br: 320000 }
let dir: string
let file: CachedFile
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cadence-cached-source-'))
  const path = join(dir, 'song.audio')
  writeFileSync(path, Buffer.from(Array.from({ length: 1000 }, (_, i) => i & 0xff)))
  file = {
    path,
    entry: {
      ...{ sourceId: 'builtin', songId: '7', bitrate: 320000 },
      file: 'song.audio',
      size: 1000,
      mtimeMs: 0,
      lastPlayed: 0,
      pinned: false,
      contentType: 'audio/wav',
    },
  }
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function setup(has: boolean, offline = false) {
  const network: string[] = []
  const filled: CacheKey[] = []
  const source = createCachedSource({
    inner: {
      async open(_ref, request) {
        network.push(request.range ?? 'all')
        return new Response('from the network', { status: 200 })
      },
    },
    playable: async () => (has ? file : undefined),
    // The copy cannot be made here (offline-tee.test.ts has one): the player is served from the network.
    fill: (key) => {
      filled.push(key)
      return undefined
    },
    isOffline: () => offline,
    log: silentLogger('media-cache'),
  })
  return { source, network, filled }
}

describe('cached media source', () => {
  it('serves a cached song from disk, whole or a range, without the network', async () => {
    const t = setup(true)
    const whole = await t.source.open(ref, { method: 'GET' })
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-length')).toBe('1000')
    expect(whole.headers.get('content-type')).toBe('audio/wav')
    expect((await whole.arrayBuffer()).byteLength).toBe(1000)
    const part = await t.source.open(ref, { method: 'GET', range: 'bytes=10-19' })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe('bytes 10-19/1000')
    expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19])
    const tail = await t.source.open(ref, { method: 'GET', range: 'bytes=-5' })
    expect(tail.headers.get('content-range')).toBe('bytes 995-999/1000')
    const past = await t.source.open(ref, { method: 'GET', range: 'bytes=1000-' })
    expect(past.status).toBe(416)
    expect(past.headers.get('content-range')).toBe('bytes */1000')
    const head = await t.source.open(ref, { method: 'HEAD' })
    expect(head.headers.get('content-length')).toBe('1000')
    expect(t.network).toEqual([])
    expect(t.filled).toEqual([])
  })

  it('streams a song it does not have from the network when no copy can be made, after asking for one', async () => {
    const t = setup(false)
    const answer = await t.source.open(ref, { method: 'GET', range: 'bytes=0-' })
    expect(await answer.text()).toBe('from the network')
    expect(t.network).toEqual(['bytes=0-'])
    expect(t.filled).toEqual([{ sourceId: 'builtin', songId: '7', bitrate: 320000 }])
  })

  it('offline, refuses a song that is not on this computer with 503 and the reason', async () => {
    const t = setup(false, true)
    const error = await t.source.open(ref, { method: 'GET' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MediaError)
    expect(error).toMatchObject({ status: 503, message: NOT_OFFLINE_MEDIA })
    expect(t.network).toEqual([])
  })

  it('streams a range too large to read at once, byte for byte', async () => {
    const big = join(dir, 'big.audio')
    const bytes = Buffer.from(Array.from({ length: READ_AT_ONCE_BYTES + 5000 }, (_, i) => (i * 7) & 0xff))
    writeFileSync(big, bytes)
    const answer = await fileResponse(
      { path: big, entry: { ...file.entry, file: 'big.audio', size: bytes.length } },
      { method: 'GET', range: 'bytes=100-' },
    )
    expect(answer.status).toBe(206)
    expect(Buffer.from(await answer.arrayBuffer()).equals(bytes.subarray(100))).toBe(true)
  })

  it('reads Range headers as a server would', () => {
    expect(parseRange('bytes=0-', 10)).toEqual({ start: 0, end: 9 })
    expect(parseRange('bytes=2-100', 10)).toEqual({ start: 2, end: 9 })
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 })
    expect(parseRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 })
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable')
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable')
    expect(parseRange('bytes=0-1,4-5', 10)).toBeUndefined()
    expect(parseRange('items=0-1', 10)).toBeUndefined()
    expect(parseRange('bytes=5-2', 10)).toBeUndefined()
  })
})
