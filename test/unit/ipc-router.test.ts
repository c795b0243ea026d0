import { describe, expect, it } from 'vitest'
import { createIpcRouter } from '@main/core/ipc/router'
import type { Handlers } from '@main/core/ipc/router'
import { DataSourceError } from '@shared/errors'
import { silentLogger } from '@main/core/log'

/** Only the channels a test needs; the router answers the rest as unavailable. */
const some = (handlers: Partial<Handlers>) => handlers as Handlers

const trusted = { senderUrl: 'app://cadence/index.html' }
const options = {
  isTrustedSender: (url: string) => url.startsWith('app://cadence/'),
  log: silentLogger('test'),
}

describe('createIpcRouter', () => {
  it('runs the handler with parsed arguments', async () => {
    const router = createIpcRouter(
      some({ 'catalog:recommend-playlists': (args) => [{ limit: args?.limit }] as never }),
      options,
    )
    expect(await router.invoke('catalog:recommend-playlists', { limit: 3 }, trusted)).toEqual({
      ok: true,
      value: [{ limit: 3 }],
    })
  })

  it('rejects malformed arguments with a typed error and never calls the handler', async () => {
    let called = false
    const router = createIpcRouter(
      some({ 'catalog:playlist': () => ((called = true), {} as never) }),
      options,
    )
    for (const bad of [undefined, null, 42, 'x', { id: {} }, { id: 1, extra: 1 }, [1]]) {
      const result = await router.invoke('catalog:playlist', bad, trusted)
      expect(result).toMatchObject({ ok: false, error: { name: 'IpcError', kind: 'invalid-argument' } })
    }
    expect(called).toBe(false)
  })

  it('refuses calls from an untrusted sender', async () => {
    const router = createIpcRouter(
      some({ 'app:info': () => ({ name: 'x', version: '1', platform: 'linux' }) }),
      options,
    )
    const result = await router.invoke('app:info', undefined, { senderUrl: 'https://evil.example/' })
    expect(result).toMatchObject({ ok: false, error: { kind: 'forbidden' } })
  })

  it('answers unknown channels with a typed error', async () => {
    const router = createIpcRouter(some({}), options)
    expect(await router.invoke('fs:read', {}, trusted)).toMatchObject({
      ok: false,
      error: { kind: 'unknown-channel' },
    })
  })

  it('passes data-source errors through as values and hides unexpected ones', async () => {
    const router = createIpcRouter(
      some({
        'catalog:toplists': () => {
          throw new DataSourceError({ kind: 'timeout', endpoint: '/playlist/toplist', message: 'slow' })
        },
        'catalog:recommend-songs': () => {
          throw new TypeError('secret internals')
        },
      }),
      options,
    )
    expect(await router.invoke('catalog:toplists', undefined, trusted)).toMatchObject({
      ok: false,
      error: {
        name: 'DataSourceError',
        kind: 'timeout',
        endpoint: '/playlist/toplist',
        channel: 'catalog:toplists',
      },
    })
    const hidden = await router.invoke('catalog:recommend-songs', undefined, trusted)
    expect(hidden).toMatchObject({ ok: false, error: { kind: 'internal' } })
    expect(JSON.stringify(hidden)).not.toContain('secret internals')
  })
})
