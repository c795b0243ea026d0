import { afterEach, describe, expect, it } from 'vitest'
import { MAX_JSON_BYTES, MAX_REDIRECTS, createApiClient } from '@main/core/api/client'
import { DataSourceError } from '@shared/errors'
import { json, ok, startFixtureServer } from '../support/fixture-server'
import type { FixtureHandler } from '../support/fixture-server'

/** The client against a hostile or broken server: size cap, redirects, media URL schemes, no retries. */

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

async function server(handler: FixtureHandler) {
  const started = await startFixtureServer(handler)
  closers.push(started.close)
  return started
}

function clientOf(baseUrl: string, credential?: string) {
  return createApiClient({ baseUrl, getCredential: () => credential, retryDelayMs: 1, cacheTtlMs: 0 })
}

async function failure(promise: Promise<unknown>): Promise<DataSourceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(DataSourceError)
  return error as DataSourceError
}

const MB = 1024 * 1024

describe('createApiClient body cap', () => {
  it('refuses an answer that announces more than 16 MB without reading it, and never asks again', async () => {
    const source = await server((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(MAX_JSON_BYTES + 1) })
      res.write('{"code":0,"data":[')
      // The rest never comes: a client that waits for it would time out instead.
    })
    const error = await failure(clientOf(source.url).recommendPlaylists())
    expect(error).toMatchObject({ kind: 'invalid-response', endpoint: '/playlist/recommend' })
    expect(error.message).toMatch(/too large \(16 MB announced; at most 16 MB is read\)/)
    expect(source.requests).toHaveLength(1)
  })

  it('stops reading a streamed answer once it passes 16 MB, and never asks again', async () => {
    const source = await server((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.write('{"code":0,"data":[')
      const chunk = Buffer.from('{"id":1,"name":"x"},'.repeat(3276)) // 64 KiB
      let sent = 0
      const pump = () => {
        while (sent < 64 * MB) {
          sent += chunk.length
          if (!res.write(chunk)) return void res.once('drain', pump)
        }
        res.end('{"id":1}]}')
      }
      pump()
    })
    const error = await failure(clientOf(source.url).toplists())
    expect(error).toMatchObject({ kind: 'invalid-response', endpoint: '/playlist/toplist' })
    expect(error.message).toContain('more than 16 MB sent')
    expect(source.requests).toHaveLength(1)
  })

  it('accepts an answer just under the cap', async () => {
    const name = 'n'.repeat(1024)
    const count = Math.floor((MAX_JSON_BYTES - 1024) / (name.length + 24))
    const body = JSON.stringify(ok(Array.from({ length: count }, (_, i) => ({ id: i + 1, name }))))
    expect(body.length).toBeLessThan(MAX_JSON_BYTES)
    const source = await server((_req, res) => json(res, body))
    expect(await clientOf(source.url).toplists()).toHaveLength(count)
  })

  it('refuses deep nesting split across chunks without reading on', async () => {
    const source = await server((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.write('{"code":0,"data":' + '['.repeat(60))
      setTimeout(() => res.write('['.repeat(60)), 10)
    })
    const error = await failure(clientOf(source.url).toplists())
    expect(error).toMatchObject({
      kind: 'invalid-response',
      message: expect.stringContaining('nested too deeply'),
    })
  })

  it('reads brackets and escaped quotes inside strings as text, even when a chunk ends in an escape', async () => {
    const source = await server((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.write(`{"code":0,"data":[{"id":1,"name":"${'['.repeat(200)}\\`)
      setTimeout(() => res.end(`"${'{'.repeat(200)}"}]}`), 10)
    })
    const [list] = await clientOf(source.url).toplists()
    expect(list.name).toBe(`${'['.repeat(200)}"${'{'.repeat(200)}`)
  })

  it('decodes multi-byte characters split across chunks', async () => {
    const bytes = Buffer.from(JSON.stringify(ok([{ id: 1, name: '夜に駆ける' }])))
    const cut = bytes.indexOf(Buffer.from('駆')) + 1
    const source = await server((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.write(bytes.subarray(0, cut))
      setTimeout(() => res.end(bytes.subarray(cut)), 10)
    })
    expect((await clientOf(source.url).toplists())[0].name).toBe('夜に駆ける')
  })

  it('reports a malformed answer as invalid-response and does not ask again', async () => {
    const source = await server((_req, res) => json(res, '{"code":0,"data":[{"id":1'))
    expect(await failure(clientOf(source.url).toplists())).toMatchObject({ kind: 'invalid-response' })
    expect(source.requests).toHaveLength(1)
  })
})

describe('createApiClient redirects', () => {
  it('never sends the credential to another origin a redirect points at', async () => {
    const elsewhere = await server((_req, res) => json(res, ok([{ id: 9, name: 'stolen' }])))
    const source = await server((_req, res) => {
      res.writeHead(302, { Location: `${elsewhere.url}/collect` })
      res.end()
    })
    const error = await failure(clientOf(source.url, 'SECRET-CREDENTIAL').recommendPlaylists())
    expect(error).toMatchObject({ kind: 'invalid-response', status: 302 })
    expect(error.message).toContain(`redirected to another site (${elsewhere.url})`)
    expect(source.requests[0].headers.token).toBe('Bearer SECRET-CREDENTIAL')
    expect(elsewhere.requests).toHaveLength(0)
    // Not retried either: the same redirect would come back.
    expect(source.requests).toHaveLength(1)
  })

  it('treats another port or scheme on the same host as another origin', async () => {
    const source = await server((req, res) => {
      const port = new URL(`http://${req.headers.host}`).port
      res.writeHead(307, { Location: `https://127.0.0.1:${port}/playlist/recommend` })
      res.end()
    })
    expect(await failure(clientOf(source.url, 'C').recommendPlaylists())).toMatchObject({
      kind: 'invalid-response',
      message: expect.stringContaining('another site'),
    })
  })

  it('follows a redirect within the data source, with the credential', async () => {
    const source = await server((req, res) => {
      if (req.url?.startsWith('/v2/')) return json(res, ok([{ id: 1, name: 'moved' }]))
      res.writeHead(301, { Location: `/v2${req.url}` })
      res.end()
    })
    const lists = await clientOf(source.url, 'C').recommendPlaylists(3)
    expect(lists[0].name).toBe('moved')
    expect(source.requests.map((r) => r.url)).toEqual([
      '/playlist/recommend?limit=3',
      '/v2/playlist/recommend?limit=3',
    ])
    expect(source.requests[1].headers.token).toBe('Bearer C')
  })

  it(`gives up after ${MAX_REDIRECTS} redirects`, async () => {
    const source = await server((req, res) => {
      res.writeHead(302, { Location: `${req.url}x` })
      res.end()
    })
    const error = await failure(clientOf(source.url).toplists())
    expect(error).toMatchObject({
      kind: 'invalid-response',
      message: expect.stringContaining('more than 3 times'),
    })
    expect(source.requests).toHaveLength(MAX_REDIRECTS + 1)
  })

  it('refuses a redirect without an address', async () => {
    const source = await server((_req, res) => void res.writeHead(302).end())
    expect(await failure(clientOf(source.url).toplists())).toMatchObject({ kind: 'invalid-response' })
  })
})

describe('createApiClient media URLs', () => {
  async function detailWithUrl(url: unknown) {
    const source = await server((_req, res) => json(res, ok({ id: 1, name: 'Song', meta: { url } })))
    return clientOf(source.url).songDetail(1, undefined)
  }

  it.each(['http://media.example/1.mp3', 'https://media.example/1.mp3?sig=abc', 'HTTPS://MEDIA.EXAMPLE/a'])(
    'accepts %s',
    async (url) => {
      expect((await detailWithUrl(url)).meta?.url).toBe(new URL(url).href)
    },
  )

  it('resolves a path against the data source', async () => {
    const song = await detailWithUrl('/media/1/320000?exp=1')
    expect(song.meta?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/1\/320000\?exp=1$/)
  })

  it.each([
    ['javascript:alert(1)', 'javascript:'],
    ['file:///etc/passwd', 'file:'],
    ['data:audio/mp3;base64,AAAA', 'data:'],
    ['blob:http://x/1', 'blob:'],
    ['ftp://media.example/1.mp3', 'ftp:'],
    [' vbscript:x', 'vbscript:'],
    ['media/1.mp3', 'not an address'],
  ])('refuses %s as an invalid response', async (url, shown) => {
    const error = await failure(detailWithUrl(url))
    expect(error).toMatchObject({ kind: 'invalid-response', endpoint: '/song/detail' })
    expect(error.message).toContain(`not http or https (${shown})`)
  })

  it('reads an empty URL as no URL (an unplayable song)', async () => {
    expect((await detailWithUrl('')).meta?.url).toBeUndefined()
  })
})
