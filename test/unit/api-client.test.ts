import { afterEach, describe, expect, it } from 'vitest'
import { createApiClient } from '@main/core/api/client'
import { DataSourceError } from '@shared/errors'
import { json, ok, startFixtureServer } from '../support/fixture-server'
import type { FixtureHandler } from '../support/fixture-server'

let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

async function clientFor(
  handler: FixtureHandler,
  credential?: string,
  options: Partial<Parameters<typeof createApiClient>[0]> = {},
) {
  const server = await startFixtureServer(handler)
  close = server.close
  return {
    server,
    api: createApiClient({
      baseUrl: server.url,
      getCredential: () => credential,
      retryDelayMs: 1,
      ...options,
    }),
  }
}

const envelope = (data: unknown, extra: Record<string, unknown> = {}) => ({
  code: 0,
  message: 'Success',
  data,
  ...extra,
})

async function failure(promise: Promise<unknown>): Promise<DataSourceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(DataSourceError)
  return error as DataSourceError
}

describe('createApiClient', () => {
  it('returns normalised playlists from a spec envelope', async () => {
    const { api, server } = await clientFor((_req, res) =>
      json(res, ok([{ id: 7, name: 'Morning', cover: 'http://x/c.png', type: 'normal', extra: true }])),
    )
    const playlists = await api.recommendPlaylists(5)
    expect(playlists).toEqual([
      expect.objectContaining({ id: 7, name: 'Morning', cover: 'http://x/c.png', type: 'normal' }),
    ])
    expect(server.requests[0].url).toBe('/playlist/recommend?limit=5')
  })

  it("keeps an artist's valid albums from meta.albums and drops the bad ones", async () => {
    const { api } = await clientFor((_req, res) =>
      json(
        res,
        ok({
          id: 3,
          name: 'Lumen',
          type: 'artist',
          songs: [],
          meta: {
            songCount: 9,
            albums: [
              { id: 40, name: 'Glass Hours', cover: '/cover/40.png', size: 8 },
              { name: 'no id' },
              'junk',
            ],
          },
        }),
      ),
    )
    const artist = await api.artistDetail(3)
    expect(artist.meta?.songCount).toBe(9)
    expect(artist.meta?.albums).toEqual([
      expect.objectContaining({
        id: 40,
        name: 'Glass Hours',
        size: 8,
        artists: [],
        cover: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/cover\/40\.png$/),
      }),
    ])
  })

  it('removes an artist meta.albums that is not a list', async () => {
    const { api } = await clientFor((_req, res) =>
      json(res, ok({ id: 3, name: 'Lumen', songs: [], meta: { albums: 'soon', other: 1 } })),
    )
    expect((await api.artistDetail(3)).meta).toEqual({ other: 1 })
  })

  it('keeps string and virtual ids exactly as given', async () => {
    const { api } = await clientFor((_req, res) => json(res, ok([{ id: 'key_daily_songs', name: 'Daily' }])))
    expect((await api.recommendPlaylists())[0].id).toBe('key_daily_songs')
  })

  it('sends the credential only in the Token header', async () => {
    const { api, server } = await clientFor((_req, res) => json(res, ok({ id: 1, name: 'Me' })), 'sekret')
    await api.loginStatus()
    expect(server.requests[0].headers.token).toBe('Bearer sekret')
    expect(server.requests[0].url).not.toContain('sekret')
  })

  it('reports a code -1 envelope as an api error with the server message', async () => {
    const { api } = await clientFor((_req, res) =>
      json(res, { code: -1, message: 'No such playlist', data: null, timestamp: new Date().toISOString() }),
    )
    const error = await failure(api.playlistDetail(1))
    expect(error).toMatchObject({
      kind: 'api',
      code: -1,
      endpoint: '/playlist/detail',
      message: 'No such playlist',
    })
  })

  it('reports an HTML error page as an http error', async () => {
    const { api } = await clientFor((_req, res) => {
      res.writeHead(502, { 'Content-Type': 'text/html' })
      res.end('<html><body>Bad gateway</body></html>')
    })
    expect(await failure(api.toplists())).toMatchObject({ kind: 'http', status: 502 })
  })

  it('reports data that does not match the schema as an invalid response', async () => {
    const { api } = await clientFor((_req, res) => json(res, ok({ id: { nested: true } })))
    expect(await failure(api.playlistDetail(1))).toMatchObject({ kind: 'invalid-response' })
  })

  it('reports an unreachable server as a network error after one retry', async () => {
    const { api, server } = await clientFor((_req, res) => json(res, ok([])))
    await server.close()
    close = undefined
    expect(await failure(api.recommendPlaylists())).toMatchObject({ kind: 'network' })
  })

  describe('tolerates real servers', () => {
    it.each([
      ['a numeric timestamp', { timestamp: 1716200000000 }],
      ['a zone-less timestamp', { timestamp: '2024-05-20 10:00:00' }],
      ['other message casing', { message: 'SUCCESS' }],
      ['code 200', { code: 200, message: 'ok' }],
      ['no timestamp or message', { message: undefined, timestamp: undefined }],
    ])('accepts %s', async (_name, extra) => {
      const { api } = await clientFor((_req, res) => json(res, envelope([{ id: 1, name: 'A' }], extra)))
      expect(await api.toplists()).toHaveLength(1)
    })

    it('accepts HTTP statuses other than 200 when the envelope says success', async () => {
      const { api } = await clientFor((_req, res) => json(res, envelope([{ id: 1 }]), 201))
      expect(await api.toplists()).toEqual([expect.objectContaining({ id: 1, name: '' })])
    })

    it('reports an error envelope on HTTP 404 with its message and status', async () => {
      const { api } = await clientFor((_req, res) =>
        json(res, { code: 404, message: 'playlist not found', data: null }, 404),
      )
      expect(await failure(api.playlistDetail(9))).toMatchObject({
        kind: 'api',
        status: 404,
        code: 404,
        message: 'playlist not found',
      })
    })

    it('reads codes 301 and HTTP 401 as a missing login', async () => {
      const { api } = await clientFor((req, res) =>
        req.url?.startsWith('/song/recommend')
          ? json(res, { code: 301, message: 'need login', data: null })
          : json(res, { code: -1, message: 'Please log in first', data: null }, 401),
      )
      expect(await failure(api.recommendSongs())).toMatchObject({ kind: 'unauthorized', code: 301 })
      expect(await failure(api.likeSong(1, true))).toMatchObject({ kind: 'unauthorized', status: 401 })
    })

    it('reads /connect/status without a user as signed out, but a 5xx as the server failing', async () => {
      let answer: [unknown, number] = [envelope(null), 200]
      const { api } = await clientFor((_req, res) => json(res, answer[0], answer[1]))
      expect(await failure(api.loginStatus())).toMatchObject({ kind: 'unauthorized' })
      answer = [{ code: -1, message: 'please log in first', data: null }, 200]
      expect(await failure(api.loginStatus())).toMatchObject({ kind: 'unauthorized' })
      answer = [{ code: 500, message: 'database down', data: null }, 503]
      expect(await failure(api.loginStatus())).toMatchObject({ kind: 'api', status: 503 })
    })

    it('accepts songs without privilege, meta, artists or album, and extra fields', async () => {
      const { api } = await clientFor((_req, res) =>
        json(res, envelope([{ id: '42', name: 'Bare', wordforword: 'x', privilege: null, artists: null }])),
      )
      const [song] = await api.recommendSongs()
      expect(song).toMatchObject({ id: '42', name: 'Bare', artists: [] })
      expect(song.privilege).toBeUndefined()
      expect(song.meta).toBeUndefined()
    })

    it('resolves cover paths against the data source and drops covers that are not addresses', async () => {
      const { api, server } = await clientFor((_req, res) =>
        json(
          res,
          envelope([
            { id: 1, cover: '/covers/1.png', creator: { id: 2, name: 'U', avatar: 'default' } },
            { id: 2, cover: 'null' },
            { id: 3, cover: 'https://img.example/3.jpg' },
          ]),
        ),
      )
      const [a, b, c] = await api.recommendPlaylists()
      expect(a.cover).toBe(`${server.url}/covers/1.png`)
      expect(a.creator?.avatar).toBeUndefined()
      expect(b.cover).toBeUndefined()
      expect(c.cover).toBe('https://img.example/3.jpg')
    })

    it('asks for virtual playlist ids as they are', async () => {
      const { api, server } = await clientFor((_req, res) =>
        json(res, envelope({ id: 'key_daily_songs', name: 'Daily', songs: [] })),
      )
      expect(await api.playlistDetail('key_daily_songs')).toMatchObject({ id: 'key_daily_songs', songs: [] })
      expect(server.requests[0].url).toBe('/playlist/detail?id=key_daily_songs')
    })

    it('drops one malformed song instead of blanking the playlist', async () => {
      const { api } = await clientFor((_req, res) =>
        json(
          res,
          envelope({ id: 1, name: 'P', songs: [{ id: 1, name: 'ok' }, { name: 'no id' }, { id: 3 }] }),
        ),
      )
      const playlist = await api.playlistDetail(1)
      expect(playlist.songs?.map((song) => song.id)).toEqual([1, 3])
    })

    it('treats an empty search answer ([] or null) as no results', async () => {
      let data: unknown = []
      const { api } = await clientFor((_req, res) => json(res, envelope(data)))
      expect(await api.search('x')).toEqual({ songs: [], albums: [], artists: [], playlists: [] })
      data = null
      expect(await api.search('y')).toEqual({ songs: [], albums: [], artists: [], playlists: [] })
    })
  })

  describe('requests', () => {
    it('keeps the credential out of URLs and logs', async () => {
      const lines: string[] = []
      const log = {
        debug: (m: string, e?: object) => lines.push(m + JSON.stringify(e)),
        info: (m: string, e?: object) => lines.push(m + JSON.stringify(e)),
        warn: (m: string, e?: object) => lines.push(m + JSON.stringify(e)),
        error: (m: string, e?: object) => lines.push(m + JSON.stringify(e)),
      }
      let first = true
      const { api, server } = await clientFor(
        (req, res) => {
          if (first) {
            first = false
            req.socket.destroy()
            return
          }
          json(res, envelope([]))
        },
        'TOPSECRET-credential',
        { log },
      )
      await api.toplists()
      await api.likeSong(1, true).catch(() => null)
      expect(server.requests.every((r) => !r.url.includes('TOPSECRET'))).toBe(true)
      expect(server.requests.every((r) => r.headers.token === 'Bearer TOPSECRET-credential')).toBe(true)
      expect(lines.length).toBeGreaterThan(0)
      expect(lines.join('\n')).not.toContain('TOPSECRET')
    })

    it('retries a GET once after a network error', async () => {
      let calls = 0
      const { api } = await clientFor((req, res) => {
        if (++calls === 1) return void req.socket.destroy()
        json(res, envelope([{ id: 5 }]))
      })
      expect(await api.toplists()).toHaveLength(1)
      expect(calls).toBe(2)
    })

    it('never retries a PUT', async () => {
      let calls = 0
      const { api } = await clientFor((req) => {
        calls++
        req.socket.destroy()
      })
      expect(await failure(api.likeSong(1, true))).toMatchObject({ kind: 'network' })
      expect(calls).toBe(1)
    })

    it('gives up after the timeout with a timeout error', async () => {
      const { api } = await clientFor(() => {}, undefined, { timeoutMs: 150 })
      expect(await failure(api.toplists())).toMatchObject({ kind: 'timeout', endpoint: '/playlist/toplist' })
    })

    it('cancels an older search when a newer one starts', async () => {
      const { api } = await clientFor((req, res) => {
        const delay = req.url?.includes('keywords=first') ? 300 : 0
        setTimeout(() => json(res, envelope({ songs: [{ id: 1 }] })), delay)
      })
      const older = api.search('first')
      const newer = api.search('second')
      expect(await failure(older)).toMatchObject({ kind: 'cancelled', endpoint: '/search' })
      expect((await newer).songs).toHaveLength(1)
    })

    it('cancels when the caller aborts', async () => {
      const { api } = await clientFor((_req, res) => setTimeout(() => json(res, envelope([])), 300))
      const controller = new AbortController()
      const pending = api.toplists(5, { signal: controller.signal })
      setTimeout(() => controller.abort(), 20)
      expect(await failure(pending)).toMatchObject({ kind: 'cancelled' })
    })

    it('reuses browse answers for a short while, but never caches /song/detail', async () => {
      let now = 0
      const { api, server } = await clientFor((_req, res) => json(res, envelope([{ id: 1 }])), undefined, {
        now: () => now,
        cacheTtlMs: 1000,
      })
      await api.recommendPlaylists(3)
      await api.recommendPlaylists(3)
      expect(server.requests).toHaveLength(1)
      now = 2000
      await api.recommendPlaylists(3)
      expect(server.requests).toHaveLength(2)
      api.clearCache()
      await api.recommendPlaylists(3)
      expect(server.requests).toHaveLength(3)
      await api.songDetail(1, 2).catch(() => null)
      await api.songDetail(1, 2).catch(() => null)
      expect(server.requests.filter((r) => r.url.startsWith('/song/detail'))).toHaveLength(2)
    })

    it('sends uid and br to /song/detail, and like as a PUT', async () => {
      const { api, server } = await clientFor((req, res) =>
        req.method === 'PUT'
          ? json(res, envelope({ id: 3, like: false, playlist: 9 }))
          : json(res, envelope({ id: 3, meta: { url: 'http://x/a.mp3' } })),
      )
      expect((await api.songDetail(3, 7, 128000)).meta?.url).toBe('http://x/a.mp3')
      expect(await api.likeSong(3, false)).toEqual({ id: 3, like: false, playlist: 9 })
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        'GET /song/detail?id=3&uid=7&br=128000',
        'PUT /song/like?id=3&like=false',
      ])
    })
  })
})

describe('createApiClient reads during a like', () => {
  it('waits for a like in flight, so the liked playlist read after it includes the song', async () => {
    const liked = new Set<string>()
    const server = await startFixtureServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x')
      if (url.pathname === '/song/like') {
        // A slow write: the read below is sent while it is still in flight.
        setTimeout(() => {
          liked.add(url.searchParams.get('id')!)
          json(res, ok({ id: Number(url.searchParams.get('id')), like: true, playlist: 9 }))
        }, 150)
        return
      }
      json(
        res,
        ok({
          id: 9,
          name: 'Liked songs',
          songs: [...liked].map((id) => ({ id: Number(id), name: `s${id}` })),
        }),
      )
    })
    try {
      const api = createApiClient({ baseUrl: server.url, getCredential: () => 'c' })
      await api.playlistDetail(9) // cached before the like
      const like = api.likeSong(5, true)
      const detail = await api.playlistDetail(9)
      await like
      expect(detail.songs?.map((s) => s.id)).toEqual([5])
    } finally {
      await server.close()
    }
  })

  it('does not cache an answer to a read that began before the like: the next read asks again', async () => {
    const liked = new Set<string>()
    let detailReads = 0
    const server = await startFixtureServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x')
      if (url.pathname === '/song/like') {
        liked.add(url.searchParams.get('id')!)
        return json(res, ok({ id: Number(url.searchParams.get('id')), like: true, playlist: 9 }))
      }
      detailReads++
      const songs = [...liked].map((id) => ({ id: Number(id), name: `s${id}` }))
      // A slow read: the like below starts and finishes while it is in flight.
      setTimeout(() => json(res, ok({ id: 9, name: 'Liked songs', songs })), 150)
    })
    try {
      const api = createApiClient({ baseUrl: server.url, getCredential: () => 'c' })
      const early = api.playlistDetail(9)
      await new Promise((wake) => setTimeout(wake, 30))
      await api.likeSong(5, true)
      expect((await early).songs).toEqual([])
      expect((await api.playlistDetail(9)).songs?.map((s) => s.id)).toEqual([5])
      expect(detailReads).toBe(2)
    } finally {
      await server.close()
    }
  })
})
