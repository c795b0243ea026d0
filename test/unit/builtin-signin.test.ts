import { afterEach, describe, expect, it } from 'vitest'
import { signInBuiltin } from '@main/core/auth/builtin-signin'
import { createApiClient } from '@main/core/api/client'
import { json, ok, startFixtureServer } from '../support/fixture-server'
import { startFixtureSource } from '../support/fixture-source'
import { OWNER_PASSPHRASE } from '../support/phone'

let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

describe('signInBuiltin', () => {
  it('plays the phone: opens the page, confirms it and returns the credential', async () => {
    const source = await startFixtureSource()
    close = source.close
    const api = createApiClient({ baseUrl: source.url, getCredential: () => undefined })
    const credential = await signInBuiltin({ passphrase: OWNER_PASSPHRASE, api })
    expect(credential).toMatch(/^credential-for-key1/)
    expect(source.requests.map((r) => `${r.method} ${r.url.replace(/\?.*/, '')}`)).toEqual([
      'GET /connect/qr/key',
      'GET /connect/qr/create',
      'GET /phone/key1',
      'POST /phone/key1',
      'GET /connect/qr/check',
    ])
  })

  it('never follows a login page on another address', async () => {
    const server = await startFixtureServer((req, res) =>
      req.url?.startsWith('/connect/qr/key')
        ? json(res, ok({ unikey: 'k' }))
        : json(res, ok({ qrurl: 'http://evil.example/phone/k', qrimg: '' })),
    )
    close = server.close
    const api = createApiClient({ baseUrl: server.url, getCredential: () => undefined })
    await expect(signInBuiltin({ passphrase: OWNER_PASSPHRASE, api })).rejects.toMatchObject({
      kind: 'invalid-response',
    })
    expect(server.requests).toHaveLength(2)
  })

  it('fails clearly when the server never confirms', async () => {
    const server = await startFixtureServer((req, res) => {
      if (req.url?.startsWith('/connect/qr/key')) return json(res, ok({ unikey: 'k' }))
      if (req.url?.startsWith('/connect/qr/create')) return json(res, ok({ qrurl: `${server.url}/p/k` }))
      if (req.url?.startsWith('/connect/qr/check')) return json(res, ok({ status: 1, cookie: 'not-yet' }))
      res.writeHead(200).end('ok')
    })
    close = server.close
    const api = createApiClient({ baseUrl: server.url, getCredential: () => undefined })
    await expect(
      signInBuiltin({ passphrase: OWNER_PASSPHRASE, api, attempts: 2, delayMs: 1 }),
    ).rejects.toMatchObject({
      kind: 'api',
      message: expect.stringMatching(/did not confirm/),
    })
  })
})
