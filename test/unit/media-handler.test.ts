import { describe, expect, it, vi } from 'vitest'
import { createMediaHandler, createNetworkSource, MediaError, SIGNED_URL_MAX_AGE_MS } from '@main/core/media'
import { DataSourceError } from '@shared/errors'
import { mediaUrl, parseMediaUrl } from '@shared/player/media-url'
import type { MediaRef } from '@shared/player/media-url'

const FILE = Uint8Array.from({ length: 1000 }, (_, i) => i % 251)
const REF: MediaRef = { sourceId: 'builtin', songId: '42', br: 320000 }
const ADDRESS = mediaUrl(REF)

/**
 * A media server as the data sources run one: signed URLs `…/media/42?v=<n>` of which only the newest is
 * valid (older ones answer 403, as an expired signature does), HTTP Range, and what `status` forces.
 */
function fakeUpstream(options: { status?: number; refuseAll?: boolean } = {}) {
  let version = 1
  const asked: Array<{ url: string; range: string | null }> = []
  const fetch = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input)
    const range = new Headers(init?.headers).get('range')
    asked.push({ url, range })
    if (options.status) return new Response('upstream says no', { status: options.status })
    if (options.refuseAll || !url.endsWith(`v=${version}`)) return new Response('expired', { status: 403 })
    const head = { 'Content-Type': 'audio/wav', 'Accept-Ranges': 'bytes', 'Set-Cookie': 'tracking=1' }
    const match = range && /^bytes=(\d+)-(\d*)$/.exec(range)
    if (!match) return new Response(FILE, { status: 200, headers: { ...head, 'Content-Length': '1000' } })
    const start = Number(match[1])
    const end = match[2] ? Math.min(Number(match[2]), FILE.length - 1) : FILE.length - 1
    if (start >= FILE.length) {
      return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${FILE.length}` } })
    }
    return new Response(FILE.slice(start, end + 1), {
      status: 206,
      headers: {
        ...head,
        'Content-Range': `bytes ${start}-${end}/${FILE.length}`,
        'Content-Length': String(end - start + 1),
      },
    })
  })
  const resolve = vi.fn(async (ref: MediaRef) => `http://media.test/media/${ref.songId}?v=${version}`)
  return { fetch, resolve, asked, expire: () => void version++ }
}

function setUp(options: Parameters<typeof fakeUpstream>[0] = {}, now?: () => number) {
  const upstream = fakeUpstream(options)
  const source = createNetworkSource({
    resolve: upstream.resolve,
    fetch: upstream.fetch as typeof fetch,
    now,
  })
  const handle = createMediaHandler({ source })
  return { upstream, source, handle }
}

const get = (range?: string, method = 'GET', address = ADDRESS) =>
  new Request(address, { method, headers: range ? { Range: range } : {} })
const bytes = async (response: Response) => new Uint8Array(await response.arrayBuffer())

describe('media URLs', () => {
  it('name a song of a source at a bitrate, and nothing else parses', () => {
    const ref = { sourceId: 'remote 1/x', songId: 'key_daily_songs', br: 128000 }
    expect(parseMediaUrl(mediaUrl(ref))).toEqual(ref)
    for (const bad of [
      'https://song/builtin/1?br=1',
      'cadence-media://other/builtin/1?br=1',
      'cadence-media://song/builtin?br=1',
      'cadence-media://song/builtin/1/2?br=1',
      'cadence-media://song/builtin/1',
      'cadence-media://song/builtin/1?br=-5',
      'not a url',
    ]) {
      expect(parseMediaUrl(bad), bad).toBeUndefined()
    }
  })
})

describe('media handler', () => {
  it('streams the whole song with its type, for the renderer only what it needs (no cookies)', async () => {
    const { handle } = setUp()
    const response = await handle(get())
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('audio/wav')
    expect(response.headers.get('content-length')).toBe('1000')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('set-cookie')).toBeNull()
    expect(await bytes(response)).toEqual(FILE)
  })

  it('answers a Range with 206 and exactly those bytes, and 416 past the end', async () => {
    const { handle, upstream } = setUp()
    const part = await handle(get('bytes=100-199'))
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe('bytes 100-199/1000')
    expect(await bytes(part)).toEqual(FILE.slice(100, 200))
    expect(upstream.asked[0].range).toBe('bytes=100-199')

    const open = await handle(get('bytes=900-'))
    expect(open.status).toBe(206)
    expect(await bytes(open)).toEqual(FILE.slice(900))

    const past = await handle(get('bytes=5000-'))
    expect(past.status).toBe(416)
    expect(past.headers.get('content-range')).toBe('bytes */1000')
  })

  it('passes the body through as a stream instead of reading it whole first', async () => {
    let pulls = 0
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++
        controller.enqueue(new Uint8Array(64 * 1024))
      },
    })
    const source = createNetworkSource({
      resolve: async () => 'http://media.test/endless',
      fetch: (async () => new Response(endless, { status: 200 })) as typeof fetch,
    })
    const response = await createMediaHandler({ source })(get())
    const reader = response.body!.getReader()
    const first = await reader.read()
    expect(first.value?.byteLength).toBe(64 * 1024)
    await reader.cancel()
    expect(pulls).toBeLessThan(10)
  })

  it('resolves an expired signed URL again and serves the same range, once', async () => {
    const { handle, upstream } = setUp()
    expect((await handle(get('bytes=0-9'))).status).toBe(206)
    upstream.expire()
    const response = await handle(get('bytes=500-509'))
    expect(response.status).toBe(206)
    expect(await bytes(response)).toEqual(FILE.slice(500, 510))
    expect(upstream.resolve).toHaveBeenCalledTimes(2)
    expect(upstream.asked.map((a) => a.range)).toEqual(['bytes=0-9', 'bytes=500-509', 'bytes=500-509'])
  })

  it('answers 403 when the fresh URL is refused too, without asking a third time', async () => {
    const { handle, upstream } = setUp({ refuseAll: true })
    const response = await handle(get())
    expect(response.status).toBe(403)
    expect(upstream.resolve).toHaveBeenCalledTimes(2)
    expect(upstream.fetch).toHaveBeenCalledTimes(2)
  })

  it('uses the URL player:resolve just got, and resolves again only once it is old', async () => {
    let clock = 1_000_000
    const { handle, source, upstream } = setUp({}, () => clock)
    source.remember(REF, 'http://media.test/media/42?v=1')
    expect((await handle(get())).status).toBe(200)
    expect(upstream.resolve).not.toHaveBeenCalled()
    clock += SIGNED_URL_MAX_AGE_MS + 1
    expect((await handle(get())).status).toBe(200)
    expect(upstream.resolve).toHaveBeenCalledTimes(1)
  })

  it('shares one resolve between requests arriving together', async () => {
    const { handle, upstream } = setUp()
    const answers = await Promise.all([handle(get('bytes=0-1')), handle(get('bytes=2-3')), handle(get())])
    expect(answers.map((a) => a.status)).toEqual([206, 206, 200])
    expect(upstream.resolve).toHaveBeenCalledTimes(1)
  })

  it('answers a song without audio 404, a refused login 403, and a failing data source 502', async () => {
    const cases: Array<[unknown, number]> = [
      [new MediaError(404, 'The audio file is missing on the server.'), 404],
      [new DataSourceError({ kind: 'api', code: 404, message: 'No song with id 42.' }), 404],
      [new DataSourceError({ kind: 'http', status: 404, message: 'Not found' }), 404],
      [new DataSourceError({ kind: 'unauthorized', message: 'Log in' }), 403],
      [new DataSourceError({ kind: 'network', message: 'connection refused' }), 502],
      [new DataSourceError({ kind: 'timeout', message: 'took too long' }), 502],
      [new DataSourceError({ kind: 'http', status: 503, message: 'Service unavailable' }), 502],
    ]
    for (const [error, status] of cases) {
      const source = createNetworkSource({ resolve: () => Promise.reject(error), fetch: vi.fn() })
      const response = await createMediaHandler({ source })(get())
      expect(response.status, String(error)).toBe(status)
      expect(await response.text()).toBe((error as Error).message)
    }
  })

  it('answers 502 when the media server fails or cannot be reached, 404 when it has no such file', async () => {
    expect((await setUp({ status: 500 }).handle(get())).status).toBe(502)
    expect((await setUp({ status: 404 }).handle(get())).status).toBe(404)
    const source = createNetworkSource({
      resolve: async () => 'http://media.test/x',
      fetch: (() => Promise.reject(new TypeError('fetch failed'))) as typeof fetch,
    })
    expect((await createMediaHandler({ source })(get())).status).toBe(502)
  })

  it('refuses other addresses (400) and methods (405), and answers HEAD without a body', async () => {
    const { handle, upstream } = setUp()
    expect((await handle(get(undefined, 'GET', 'cadence-media://song/x?br=1'))).status).toBe(400)
    const post = await handle(get(undefined, 'POST'))
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
    const head = await handle(get(undefined, 'HEAD'))
    expect(head.status).toBe(200)
    expect(head.body).toBeNull()
    expect(upstream.fetch.mock.calls.at(-1)?.[1]?.method).toBe('HEAD')
  })
})
