import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createMemoryStore } from '@main/core'
import { createApiClient } from '@main/core/api/client'
import { signInBuiltin } from '@main/core/auth/builtin-signin'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import type { EventMap, EventName, IpcResult } from '@shared/ipc/contract'
import { VAULT_KEY } from '@main/core/auth/vault'
import { createTestCore } from '../support/test-core'
import { createTestCipher } from '../support/test-cipher'
import { OWNER_PASSPHRASE } from '../support/phone'
import * as phone from '../support/phone'

const APP = { senderUrl: 'app://cadence/index.html' }

describe('the core against the reference data source', () => {
  let server: DataSourceHandle
  let dataDir: string
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-core-int-'))
    server = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir,
      port: 0,
      demo: 80,
      ownerName: 'Integration Owner',
    })
  })
  afterAll(async () => {
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('signInBuiltin confirms its own code and gets a working credential', async () => {
    const api = createApiClient({ baseUrl: server.url, getCredential: () => undefined })
    const credential = await signInBuiltin({ passphrase: OWNER_PASSPHRASE, api })
    const signedIn = createApiClient({ baseUrl: server.url, getCredential: () => credential })
    expect(await signedIn.loginStatus()).toMatchObject({ name: 'Integration Owner' })
  })

  it('opens signed in with the built-in source, browses, resolves, likes and signs out', async () => {
    const core = createTestCore({
      builtinPassphrase: OWNER_PASSPHRASE,
      builtinSourceUrl: server.url,
      appInfo: { name: 'Cadence', version: '0', platform: 'linux' },
    })
    const call = async (channel: string, args?: unknown) => {
      const result = (await core.router.invoke(channel, args, APP)) as IpcResult
      if (!result.ok) throw new Error(`${channel}: ${result.error.message}`)
      return result.value as never
    }
    expect(await core.start()).toMatchObject({ status: 'signed-in', user: { name: 'Integration Owner' } })

    const mine = (await call('catalog:user-playlists')) as Array<{ id: number }>
    expect(mine.length).toBeGreaterThan(0)
    const playlist = (await call('catalog:playlist', { id: mine[0].id })) as {
      total: number
      rows: unknown[]
    }
    expect(playlist.rows).toHaveLength(Math.min(playlist.total, 100))
    const [song] = (await call('catalog:recommend-songs', { limit: 1 })) as Array<{ id: number }>
    const resolved = (await call('player:resolve', { id: song.id, br: 128000 })) as {
      meta?: { url?: string }
    }
    // The renderer gets main's media scheme, never the data source's signed address.
    expect(resolved.meta?.url).toMatch(/^cadence-media:\/\/song\//)
    expect(await call('catalog:like', { id: song.id, like: true })).toMatchObject({ id: song.id, like: true })
    const again = (await call('player:resolve', { id: song.id })) as { meta?: { isFavorite?: boolean } }
    expect(again.meta?.isFavorite).toBe(true)

    const search = (await call('catalog:search', { keywords: 'a', limit: 5 })) as { songs: unknown[] }
    expect(Array.isArray(search.songs)).toBe(true)

    await call('auth:logout')
    expect(await call('auth:status')).toMatchObject({ status: 'signed-out' })
    core.dispose()
  })

  it('revokes the credential on the data source when the user signs out, before forgetting it', async () => {
    const store = createMemoryStore()
    const cipher = createTestCipher()
    const core = createTestCore({
      builtinPassphrase: OWNER_PASSPHRASE,
      store,
      cipher,
      builtinSourceUrl: server.url,
      appInfo: { name: 'Cadence', version: '0', platform: 'linux' },
    })
    expect(await core.start()).toMatchObject({ status: 'signed-in' })
    const stored = store.snapshot()[VAULT_KEY] as Record<string, { data: string }>
    const credential = cipher.decrypt(stored.builtin.data)
    const status = () => fetch(`${server.url}/connect/status`, { headers: { Token: credential } })
    expect((await status()).status).toBe(200)
    const result = (await core.router.invoke('auth:logout', undefined, APP)) as IpcResult
    expect(result.ok).toBe(true)
    // A copy of the credential (a backup, another process) is worth nothing now.
    expect((await status()).status).toBe(401)
    core.dispose()
  })

  it('runs the real QR loop against a remote source and notices when the server forgets the login', async () => {
    const core = createTestCore({
      builtinPassphrase: OWNER_PASSPHRASE,
      isTrustedSender: () => true,
      appInfo: { name: 'Cadence', version: '0', platform: 'linux' },
    })
    const events: Array<[EventName, unknown]> = []
    core.events.subscribe((event, payload) => events.push([event, payload]))
    const last = <E extends EventName>(name: E) =>
      events.filter(([e]) => e === name).at(-1)?.[1] as EventMap[E] | undefined
    const added = (await core.router.invoke('sources:add', { url: server.url }, APP)) as IpcResult<{
      id: string
    }>
    if (!added.ok) throw new Error(added.error.message)
    await core.router.invoke('sources:activate', { id: added.value.id }, APP)
    await core.router.invoke('settings:update', { qrPollIntervalMs: 3000 }, APP)
    await core.router.invoke('auth:start-qr', undefined, APP)
    await vi.waitFor(() => expect(last('auth:qr')?.phase).toBe('waiting'))
    const qrurl = last('auth:qr')!.qrurl!
    await fetch(qrurl).then((r) => r.text())
    await vi.waitFor(() => expect(last('auth:qr')?.phase).toBe('scanned'), { timeout: 8000 })
    await phone.confirmOnPhone(qrurl)
    await vi.waitFor(() => expect(last('auth:changed')?.status).toBe('signed-in'), { timeout: 8000 })
    expect(last('auth:qr')).toMatchObject({ phase: 'authorised', user: { name: 'Integration Owner' } })

    server.expireCredentials()
    await core.router.invoke('catalog:like', { id: 1, like: false }, APP)
    await vi.waitFor(() => expect(last('auth:changed')?.status).toBe('expired'))
    core.dispose()
  }, 30_000)
})
