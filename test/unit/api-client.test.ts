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

async function clientFor(handler: FixtureHandler, credential?: string) {
  const server = await startFixtureServer(handler)
  close = server.close
  return {
    server,
    api: createApiClient({ baseUrl: server.url, getCredential: () => credential, retryDelayMs: 1 }),
  }
}

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
})
