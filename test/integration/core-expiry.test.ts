import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createCore, createMemoryStore } from '@main/core'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import type { ErrorPayload } from '@shared/errors'
import type { EventMap, EventName, IpcResult } from '@shared/ipc/contract'
import { createTestCipher } from '../support/test-cipher'
import { OWNER_PASSPHRASE } from '../support/phone'
import * as phone from '../support/phone'
import { startFaultProxy } from '../support/fault-proxy'
import { startQuirkProxy } from '../support/quirk-proxy'
import type { QuirkProfile, QuirkProxy } from '../support/quirk-proxy'

const APP = { senderUrl: 'app://cadence/index.html' }

/**
 * Expired logins on servers that never answer 401 (NeteaseMusicAdapter, QMusicAdapter, as quirk proxies
 * in front of the reference server): one `/connect/status` check for a burst of failures, then
 * `unauthorized`, the credential gone and `auth:changed` `expired`.
 */
describe('the core notices an expired login on servers that never answer 401', () => {
  let server: DataSourceHandle
  let dataDir: string
  const closers: Array<() => Promise<void> | void> = []

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-core-expiry-'))
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 60 })
  })
  afterAll(async () => {
    for (const close of closers.reverse()) await close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  async function appOn(profile: QuirkProfile, options: { requireUid?: boolean; faults?: boolean } = {}) {
    const proxy = await startQuirkProxy(server.url, profile, options)
    closers.push(() => proxy.close())
    // Optionally a misbehaving proxy in front (an outage: HTML 502 pages).
    const faults = options.faults ? await startFaultProxy(proxy.url) : undefined
    if (faults) closers.push(() => faults.close())
    const store = createMemoryStore()
    const core = createCore({
      store,
      cipher: createTestCipher(),
      isTrustedSender: () => true,
      appInfo: { name: 'Cadence', version: '0', platform: 'linux' },
    })
    closers.push(() => core.dispose())
    const events: Array<[EventName, unknown]> = []
    core.events.subscribe((event, payload) => events.push([event, payload]))
    const last = <E extends EventName>(name: E) =>
      events.filter(([e]) => e === name).at(-1)?.[1] as EventMap[E] | undefined
    const invoke = (channel: string, args?: unknown) =>
      core.router.invoke(channel, args, APP) as Promise<IpcResult>
    const added = (await invoke('sources:add', { url: faults?.url ?? proxy.url })) as IpcResult<{
      id: string
    }>
    if (!added.ok) throw new Error(added.error.message)
    await invoke('sources:activate', { id: added.value.id })
    return { proxy, faults, core, store, events, last, invoke }
  }

  async function logIn(app: {
    invoke: (c: string, a?: unknown) => Promise<IpcResult>
    last: <E extends EventName>(n: E) => EventMap[E] | undefined
  }) {
    await app.invoke('auth:start-qr')
    await vi.waitFor(() => expect(app.last('auth:qr')?.phase).toBe('waiting'))
    await phone.confirmOnPhone(app.last('auth:qr')!.qrurl!)
    await vi.waitFor(() => expect(app.last('auth:changed')?.status).toBe('signed-in'), { timeout: 10_000 })
  }

  const errorOf = (result: IpcResult): ErrorPayload => {
    if (result.ok) throw new Error('expected a failure')
    return result.error
  }
  const statusChecks = (proxy: QuirkProxy) => proxy.hits.get('/connect/status') ?? 0

  it.each([
    ['netease', ['catalog:recommend-songs', 'catalog:user-playlists', 'catalog:like']],
    ['qq', ['catalog:search', 'catalog:user-playlists', 'catalog:like']],
  ] as const)(
    '%s: a burst of failed calls asks /connect/status once, then reports unauthorized and drops the login',
    async (profile, channels) => {
      const app = await appOn(profile)
      await logIn(app)
      const args: Record<string, unknown> = {
        'catalog:recommend-songs': { limit: 3 },
        'catalog:user-playlists': {},
        'catalog:like': { id: 1, like: true },
        'catalog:search': { keywords: 'a', limit: 3 },
      }
      // Signed in, every one of these works.
      for (const channel of channels) expect((await app.invoke(channel, args[channel])).ok).toBe(true)
      const checksBefore = statusChecks(app.proxy)

      server.expireCredentials()
      const results = await Promise.all(channels.map((channel) => app.invoke(channel, args[channel])))
      for (const result of results) {
        expect(errorOf(result)).toMatchObject({
          kind: 'unauthorized',
          message: 'You are signed out of this data source. Please log in again.',
        })
      }
      expect(statusChecks(app.proxy) - checksBefore).toBe(1)
      expect(app.last('auth:changed')).toMatchObject({ status: 'expired', user: null })
      expect(app.core.auth.state().status).toBe('expired')
      // The credential is gone: the next call goes out without a Token (anonymous search works again).
      expect((await app.invoke('catalog:search', { keywords: 'b', limit: 1 })).ok).toBe(true)
      expect(statusChecks(app.proxy) - checksBefore).toBe(1)

      // Logging in again brings everything back.
      await logIn(app)
      for (const channel of channels) expect((await app.invoke(channel, args[channel])).ok).toBe(true)
    },
    40_000,
  )

  it('keeps the login and the server message when the session is fine and the server fails anyway', async () => {
    const app = await appOn('netease')
    await logIn(app)
    const checksBefore = statusChecks(app.proxy)
    // No such playlist: the netease-like server answers its generic -1.
    const failure = errorOf(await app.invoke('catalog:playlist', { id: 99_999_999 }))
    expect(failure.kind).not.toBe('unauthorized')
    expect(statusChecks(app.proxy) - checksBefore).toBe(1)
    expect(app.core.auth.state().status).toBe('signed-in')
  }, 30_000)

  it('never takes an outage for a logout: the check fails too, and the login and its state stay', async () => {
    const app = await appOn('qq', { faults: true })
    await logIn(app)
    const changes = app.events.filter(([e]) => e === 'auth:changed').length
    app.faults!.set('*', 'html-502')
    const failure = errorOf(await app.invoke('catalog:search', { keywords: 'a', limit: 3 }))
    expect(failure).toMatchObject({ kind: 'http', status: 502 })
    // The check was asked (and failed with the same 502) …
    expect(app.faults!.hits.get('/connect/status') ?? 0).toBeGreaterThanOrEqual(2)
    // … and nothing about the login changed.
    expect(app.events.filter(([e]) => e === 'auth:changed').length).toBe(changes)
    expect(app.core.auth.state().status).toBe('signed-in')
    app.faults!.clear()
    expect((await app.invoke('catalog:search', { keywords: 'a', limit: 3 })).ok).toBe(true)
  }, 30_000)

  it('says that a server wanting uid plays only for signed-in users when playing signed out', async () => {
    const app = await appOn('netease', { requireUid: true })
    const search = await app.invoke('catalog:search', { keywords: 'a', limit: 1 })
    if (!search.ok) throw new Error(search.error.message)
    const [song] = (search.value as { songs: Array<{ id: number }> }).songs
    expect(song).toBeDefined()
    expect(errorOf(await app.invoke('player:resolve', { id: song.id, br: 128000 }))).toMatchObject({
      kind: 'unauthorized',
      endpoint: '/song/detail',
      message: 'This data source plays songs only for signed-in users. Log in, then play again.',
    })
    // Signed in, the uid goes along and the song plays.
    await logIn(app)
    const resolved = await app.invoke('player:resolve', { id: song.id, br: 128000 })
    expect(resolved).toMatchObject({
      ok: true,
      value: { meta: { url: expect.stringMatching(/^cadence-media:/) } },
    })
  }, 30_000)
})
