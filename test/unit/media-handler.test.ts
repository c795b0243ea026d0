import { describe, expect, it, vi } from 'vitest'
import { createMediaHandler, createNetworkSource, MediaError, SIGNED_URL_MAX_AGE_MS } from '@main/core/media'
import { createSourceNet } from '@main/core/net'
import type { LookupAll } from '@main/core/net'
import { DataSourceError } from '@shared/errors'
import { coverMediaUrl, mediaUrl, parseMediaUrl } from '@shared/player/media-url'
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

/** A cover server: `/big` is over 2 MiB, `/page` is HTML, `/stream` sends 3 MiB without a length. */
function coverUpstream() {
  const asked: string[] = []
  const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><rect fill="red"/></svg>')
  const fetch = vi.fn(async (input: string | URL | Request) => {
    const url = String(input)
    asked.push(url)
    const path = new URL(url).pathname
    if (path === '/big')
      return new Response(new Uint8Array(16), {
        headers: { 'Content-Type': 'image/png', 'Content-Length': String(3 * 1024 * 1024) },
      })
    if (path === '/stream') {
      const chunk = new Uint8Array(64 * 1024)
      let sent = 0
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          sent += chunk.byteLength
          controller.enqueue(chunk)
          if (sent >= 3 * 1024 * 1024) controller.close()
        },
      })
      return new Response(body, { headers: { 'Content-Type': 'image/jpeg' } })
    }
    if (path === '/page') return new Response('<p>hi</p>', { headers: { 'Content-Type': 'text/html' } })
    return new Response(SVG, { headers: { 'Content-Type': 'image/svg+xml; charset=utf-8' } })
  })
  return { fetch, asked, SVG }
}

const noSong = { open: () => Promise.reject(new Error('no song expected')) }

describe('media handler: covers not kept', () => {
  it('fetches a cover not kept through the source’s fetch and serves it with CORS, once for callers together', async () => {
    const upstream = coverUpstream()
    const fetchFor = vi.fn(() => upstream.fetch as typeof fetch)
    const handle = createMediaHandler({
      source: noSong,
      covers: async () => undefined,
      coverFetch: { sourceId: () => 'builtin', fetchFor },
    })
    const address = coverMediaUrl('http://src.test/media/cover/album/1')
    // The tint and the notification's PNG ask for the song's cover at the same moment.
    const [first, second] = await Promise.all([handle(new Request(address)), handle(new Request(address))])
    for (const answer of [first, second]) {
      expect(answer.status).toBe(200)
      expect(answer.headers.get('access-control-allow-origin')).toBe('*')
      expect(answer.headers.get('content-type')).toBe('image/svg+xml')
      expect(answer.headers.get('content-security-policy')).toContain('sandbox')
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
      expect(new Uint8Array(await answer.arrayBuffer())).toEqual(upstream.SVG)
    }
    const head = await handle(new Request(address, { method: 'HEAD' }))
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(upstream.SVG.byteLength))
    expect(upstream.asked).toEqual(['http://src.test/media/cover/album/1'])
    expect(fetchFor).toHaveBeenCalledWith('builtin')
  })

  it('remembers only the last 8 covers, each for the source it was fetched for', async () => {
    const upstream = coverUpstream()
    let active = 'a'
    const handle = createMediaHandler({
      source: noSong,
      coverFetch: { sourceId: () => active, fetchFor: () => upstream.fetch as typeof fetch },
    })
    const cover = (n: number) => coverMediaUrl(`http://src.test/cover/${n}.svg`)
    for (let n = 1; n <= 9; n++) expect((await handle(new Request(cover(n)))).status).toBe(200)
    expect(upstream.asked).toHaveLength(9)
    await handle(new Request(cover(9)))
    expect(upstream.asked).toHaveLength(9)
    await handle(new Request(cover(1)))
    expect(upstream.asked).toHaveLength(10)
    active = 'b'
    await handle(new Request(cover(9)))
    expect(upstream.asked).toHaveLength(11)
  })

  it('answers 404 for a cover at a refused address, too large or not an image, and tries again later', async () => {
    const upstream = coverUpstream()
    const lookup: LookupAll = async (host) => [
      { address: host === 'nas.test' ? '192.168.1.9' : '93.184.216.34', family: 4 },
    ]
    // The source's real guarded fetch: its own host and public addresses only.
    const net = createSourceNet({
      policy: () => ({ hosts: ['src.test'] }),
      lookup,
      fetch: upstream.fetch as typeof fetch,
    })
    const handle = createMediaHandler({
      source: noSong,
      covers: async () => undefined,
      coverFetch: { sourceId: () => 'hostile', fetchFor: net.fetchFor },
    })
    const status = async (src: string) => (await handle(new Request(coverMediaUrl(src)))).status
    expect(await status('http://nas.test/cover.png')).toBe(404)
    expect(await status('http://192.168.1.9/cover.png')).toBe(404)
    expect(upstream.asked).toEqual([])
    expect(await status('http://src.test/big')).toBe(404)
    expect(await status('http://src.test/stream')).toBe(404)
    expect(await status('http://src.test/page')).toBe(404)
    expect(upstream.asked).toHaveLength(3)
    // A failure is not remembered: the same address is asked again, and a public host's cover is served.
    expect(await status('http://src.test/page')).toBe(404)
    expect(upstream.asked).toHaveLength(4)
    expect(await status('http://cdn.example.com/cover.svg')).toBe(200)
    net.dispose()
  })
})
