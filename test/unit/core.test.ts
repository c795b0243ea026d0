import { afterEach, describe, expect, it, vi } from 'vitest'
import { createCore, createMemoryStore } from '@main/core'
import { VAULT_KEY } from '@main/core/auth/vault'
import { MAX_SESSION_CHARS } from '@main/core/player/handlers'
import { INVOKE_CHANNELS } from '@shared/ipc/contract'
import type { AuthState, EventMap, EventName, InvokeChannel, IpcResult } from '@shared/ipc/contract'
import { createTestCipher } from '../support/test-cipher'
import { startFixtureSource } from '../support/fixture-source'

const APP = 'app://cadence/index.html'
const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step()
})

async function setup(options: { store?: ReturnType<typeof createMemoryStore>; builtin?: boolean } = {}) {
  const source = await startFixtureSource()
  cleanups.push(source.close)
  const store = options.store ?? createMemoryStore()
  const cipher = createTestCipher()
  const windows = { openLogin: vi.fn(), closeLogin: vi.fn() }
  const openExternal = vi.fn()
  const onPlayerState = vi.fn()
  const copyText = vi.fn()
  const build = (s = store) =>
    createCore({
      store: s,
      cipher,
      isTrustedSender: (url) => url.startsWith('app://cadence/'),
      appInfo: { name: 'Cadence', version: '1.2.3', platform: 'linux' },
      builtinSourceUrl: options.builtin === false ? undefined : source.url,
      windows,
      openExternal,
      onPlayerState,
      copyText,
      renderQr: async (text) => `data:image/png;base64,${Buffer.from(text).toString('base64')}`,
    })
  const core = build()
  cleanups.push(() => core.dispose())
  const events: Array<[EventName, unknown]> = []
  core.events.subscribe((event, payload) => events.push([event, payload]))
  const invoke = async <C extends InvokeChannel>(channel: C, args?: unknown) =>
    (await core.router.invoke(channel, args, { senderUrl: APP })) as IpcResult
  const value = async (channel: InvokeChannel, args?: unknown) => {
    const result = await invoke(channel, args)
    if (!result.ok) throw new Error(`${channel}: ${result.error.kind} ${result.error.message}`)
    return result.value as never
  }
  const last = <E extends EventName>(name: E) =>
    events.filter(([event]) => event === name).at(-1)?.[1] as EventMap[E] | undefined
  return {
    source,
    store,
    cipher,
    core,
    build,
    events,
    invoke,
    value,
    last,
    windows,
    openExternal,
    onPlayerState,
    copyText,
  }
}

describe('createCore', () => {
  it('registers a handler for every channel of the contract', async () => {
    const t = await setup()
    expect(Object.keys(t.core.handlers).sort()).toEqual([...INVOKE_CHANNELS].sort())
    for (const channel of INVOKE_CHANNELS) {
      const result = await t.invoke(channel, {})
      if (!result.ok) expect(result.error.kind, channel).not.toBe('unavailable')
    }
  })

  it('signs in to the built-in data source by itself and keeps the credential encrypted', async () => {
    const t = await setup()
    const state = await t.core.start()
    expect(state).toMatchObject({ sourceId: 'builtin', status: 'signed-in', user: { name: 'Fixture Owner' } })
    expect(t.last('auth:changed')).toMatchObject({ status: 'signed-in' })
    const stored = t.store.snapshot()[VAULT_KEY] as Record<string, { data: string }>
    expect(t.cipher.decrypt(stored.builtin.data)).toMatch(/^credential-for-/)
    // The next start of the app is signed in from the vault, without another sign-in.
    const again = t.build()
    const before = t.source.requests.length
    expect(await again.start()).toMatchObject({ status: 'signed-in' })
    const urls = t.source.requests.slice(before).map((r) => r.url)
    // No sign-in again: one status check (the rest is the liked songs' read, core/likes, of either core).
    expect(urls.filter((url) => url.startsWith('/connect/'))).toEqual(['/connect/status'])
  })

  it('uses the signed-in user for their playlists and song details, and likes with a PUT', async () => {
    const t = await setup()
    await t.core.start()
    expect(await t.value('catalog:user-playlists')).toEqual([
      expect.objectContaining({ name: 'lists of 77' }),
    ])
    expect(await t.value('player:resolve', { id: 5, br: 128000 })).toMatchObject({ name: 'uid=77 br=128000' })
    expect(await t.value('catalog:like', { id: 5, like: true })).toEqual({ id: 5, like: true })
    expect(t.source.requests.at(-1)).toMatchObject({ method: 'PUT' })
  })

  it('signs out: playlists need a login again and the next start stays signed out', async () => {
    const t = await setup()
    await t.core.start()
    const stored = t.store.snapshot()[VAULT_KEY] as Record<string, { data: string }>
    const credential = t.cipher.decrypt(stored.builtin.data)
    await t.value('auth:logout')
    // Asked the source to revoke it (this one has no logout: a 404, and the sign-out goes on).
    expect(t.source.requests.filter((r) => r.url === '/connect/logout')).toEqual([
      expect.objectContaining({
        method: 'POST',
        headers: expect.objectContaining({ token: `Bearer ${credential}` }),
      }),
    ])
    expect(t.last('auth:changed')).toMatchObject({ status: 'signed-out', user: null })
    expect(t.store.snapshot()[VAULT_KEY]).toBeUndefined()
    expect(await t.invoke('catalog:user-playlists')).toMatchObject({
      ok: false,
      error: { kind: 'unauthorized' },
    })
    expect(await t.value('player:resolve', { id: 5 })).toMatchObject({ name: 'uid=null br=null' })
    expect(await t.build().start()).toMatchObject({ status: 'signed-out' })
  })

  it('turns an unauthorized answer into an expired login and offers the QR login again', async () => {
    const t = await setup({ builtin: false })
    const added = (await t.value('sources:add', { url: t.source.url })) as { id: string }
    await t.value('sources:activate', { id: added.id })
    await t.value('auth:start-qr')
    await vi.waitFor(() => expect(t.last('auth:qr')?.phase).toBe('waiting'))
    t.source.confirm(new URL(t.last('auth:qr')!.qrurl!).pathname.split('/').pop()!)
    await vi.waitFor(() => expect(t.last('auth:changed')?.status).toBe('signed-in'), { timeout: 8000 })

    t.source.expireCredentials()
    expect(await t.invoke('catalog:recommend-songs')).toMatchObject({
      ok: false,
      error: { kind: 'unauthorized' },
    })
    await vi.waitFor(() => expect(t.last('auth:changed')).toMatchObject({ status: 'expired', user: null }))
    expect(t.store.snapshot()[VAULT_KEY]).toBeUndefined()
  }, 15_000)

  it('opens the login window for a remote source and closes it when cancelled', async () => {
    const t = await setup({ builtin: false })
    const added = (await t.value('sources:add', { url: t.source.url })) as { id: string }
    await t.value('sources:activate', { id: added.id })
    await t.value('auth:start-qr')
    expect(t.windows.openLogin).toHaveBeenCalledTimes(1)
    await vi.waitFor(() => expect(t.last('auth:qr')?.phase).toBe('waiting'))
    expect(await t.value('auth:qr-state')).toMatchObject({
      phase: 'waiting',
      qrimg: expect.stringMatching(/^data:/),
    })
    await t.value('auth:cancel-qr')
    expect(t.last('auth:qr')?.phase).toBe('cancelled')
    expect(t.windows.closeLogin).toHaveBeenCalled()
    expect(t.core.auth.qrRunning()).toBe(false)
  })

  it('joins a QR login already running instead of replacing its code (a login window that mounts late)', async () => {
    const t = await setup({ builtin: false })
    const added = (await t.value('sources:add', { url: t.source.url })) as { id: string }
    await t.value('sources:activate', { id: added.id })
    await t.value('auth:start-qr')
    await vi.waitFor(() => expect(t.last('auth:qr')?.phase).toBe('waiting'))
    const first = t.last('auth:qr')!.qrurl
    const keyRequests = () => t.source.requests.filter((r) => r.url.startsWith('/connect/qr/key')).length
    const keys = keyRequests()

    await t.value('auth:start-qr')
    expect(keyRequests()).toBe(keys)
    expect(t.last('auth:qr')).toMatchObject({ phase: 'waiting', qrurl: first })
    expect(t.windows.openLogin).toHaveBeenCalledTimes(2)

    // The phone confirms the code it scanned first: the login goes through.
    t.source.confirm(new URL(first!).pathname.split('/').pop()!)
    await vi.waitFor(() => expect(t.last('auth:changed')?.status).toBe('signed-in'), { timeout: 8000 })
  }, 15_000)

  it('stops the QR login when the user closes the login window', async () => {
    const t = await setup({ builtin: false })
    const added = (await t.value('sources:add', { url: t.source.url })) as { id: string }
    await t.value('sources:activate', { id: added.id })
    await t.value('auth:start-qr')
    t.core.loginWindowClosed()
    expect(t.last('auth:qr')?.phase).toBe('cancelled')
    expect(t.core.auth.qrRunning()).toBe(false)
  })

  it("keeps one set of the user's playlists through a switch, and the songs of a removed source", async () => {
    const t = await setup()
    const added = (await t.value('sources:add', { url: t.source.url.replace('127.0.0.1', 'localhost') })) as {
      id: string
    }
    await t.value('sources:activate', { id: added.id })
    await t.value('collection:create', {
      name: 'Over there',
      songs: [{ id: 1, name: 'a', tns: [], artists: [] }],
    })
    expect(t.last('collection:changed')?.map((p) => p.name)).toEqual(['Over there'])
    await t.value('sources:activate', { id: 'builtin' })
    expect(t.last('collection:changed')?.map((p) => p.name)).toEqual(['Over there'])
    await t.value('collection:create', { name: 'Here' })
    expect(t.store.snapshot().collections).toHaveLength(2)
    await t.value('sources:remove', { id: added.id })
    expect(t.last('collection:changed')?.map((p) => [p.name, p.size])).toEqual([
      ['Over there', 1],
      ['Here', 0],
    ])
    const bad = await t.invoke('collection:create', { name: '   ' })
    expect(bad.ok || bad.error.kind).toBe('invalid-argument')
  })

  it('switches data sources: each has its own login, and both sides are told', async () => {
    const t = await setup()
    await t.core.start()
    const added = (await t.value('sources:add', { url: t.source.url.replace('127.0.0.1', 'localhost') })) as {
      id: string
    }
    expect(t.last('sources:changed')?.sources).toHaveLength(2)
    await t.value('sources:activate', { id: added.id })
    expect(t.last('sources:changed')?.activeId).toBe(added.id)
    await vi.waitFor(() =>
      expect(t.last('auth:changed')).toMatchObject({ sourceId: added.id, status: 'signed-out' }),
    )
    expect(await t.value('catalog:recommend-playlists')).toEqual([
      expect.objectContaining({ name: 'for anyone' }),
    ])
    await t.value('sources:activate', { id: 'builtin' })
    await vi.waitFor(() =>
      expect(t.last('auth:changed')).toMatchObject({ sourceId: 'builtin', status: 'signed-in' }),
    )
    expect(await t.value('catalog:recommend-playlists')).toEqual([
      expect.objectContaining({ name: 'for you' }),
    ])

    await t.value('sources:remove', { id: added.id })
    expect((t.last('sources:changed')?.sources ?? []).map((s) => s.id)).toEqual(['builtin'])
    expect(await t.invoke('sources:remove', { id: 'builtin' })).toMatchObject({ ok: false })
  })

  it('refuses to add an internet address over plain http', async () => {
    const t = await setup()
    expect(await t.invoke('sources:add', { url: 'http://music.example.com' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-argument', message: expect.stringMatching(/https/) },
    })
  })

  it('applies "keep me signed in" at once and tells the renderer where the credential is', async () => {
    const t = await setup()
    await t.core.start()
    await t.value('settings:update', { keepSignedIn: false })
    expect(t.last('settings:changed')).toMatchObject({ keepSignedIn: false })
    expect(t.store.snapshot()[VAULT_KEY]).toBeUndefined()
    expect(t.last('auth:changed')).toMatchObject({ status: 'signed-in', storage: { mode: 'memory' } })
    expect(await t.value('settings:get')).toMatchObject({ keepSignedIn: false })
  })

  it('saves and loads the player session, within a size cap', async () => {
    const t = await setup()
    const session = { version: 1, queue: { items: [1, 2, 3] }, positionMs: 1500, volume: 0.5, muted: false }
    expect(await t.value('player:load-session')).toBeNull()
    await t.value('player:save-session', session)
    expect(await t.value('player:load-session')).toEqual(session)
    const huge = { ...session, queue: 'x'.repeat(MAX_SESSION_CHARS) }
    expect(await t.invoke('player:save-session', huge)).toMatchObject({
      ok: false,
      error: { kind: 'invalid-argument' },
    })
    expect(await t.value('player:load-session')).toEqual(session)
  })

  it('reports player state to the tray and forwards tray commands to the renderer', async () => {
    const t = await setup()
    const state = { playing: true, song: { id: 1, name: 'A', artists: 'B', liked: false } }
    await t.value('player:report-state', state)
    expect(t.onPlayerState).toHaveBeenCalledWith(state)
    expect(t.core.playerState()).toEqual(state)
    t.core.playerCommand('next')
    expect(t.last('player:command')).toEqual({ command: 'next' })
  })

  it('before quitting, asks the renderer to save the session and waits for the save, or not for long', async () => {
    const t = await setup()
    // Nothing in the player: nothing to wait for.
    await t.core.beforeQuit(60_000)
    expect(t.last('player:command')).toBeUndefined()

    await t.value('player:report-state', {
      playing: true,
      song: { id: 1, name: 'A', artists: 'B', liked: false },
    })
    let done = false
    const quit = t.core.beforeQuit(60_000).then(() => (done = true))
    expect(t.last('player:command')).toEqual({ command: 'save-session' })
    await Promise.resolve()
    expect(done).toBe(false)
    const session = { version: 1, queue: { items: [1] }, positionMs: 61_000, volume: 1, muted: false }
    await t.value('player:save-session', session)
    await quit
    expect(done).toBe(true)

    vi.useFakeTimers()
    try {
      const unanswered = t.core.beforeQuit(1500)
      vi.advanceTimersByTime(1500)
      await unanswered
    } finally {
      vi.useRealTimers()
    }
  })

  it('copies text and answers app:info; the renderer cannot name an address to open', async () => {
    const t = await setup()
    await t.value('app:copy-text', { text: 'http://127.0.0.1:1/song/detail?id=1' })
    expect(t.copyText).toHaveBeenCalledWith('http://127.0.0.1:1/song/detail?id=1')
    expect(await t.invoke('app:copy-text', { text: '' })).toMatchObject({ ok: false })
    expect(
      await t.core.router.invoke(
        'app:open-external',
        { url: 'https://example.com/help' },
        { senderUrl: APP },
      ),
    ).toMatchObject({
      ok: false,
      error: { kind: 'unknown-channel' },
    })
    expect(t.openExternal).not.toHaveBeenCalled()
    expect(await t.value('app:info')).toEqual({ name: 'Cadence', version: '1.2.3', platform: 'linux' })
  })

  it('says the built-in library is starting until main reports it ready, then signs in', async () => {
    const t = await setup({ builtin: false })
    expect(await t.invoke('catalog:toplists')).toMatchObject({ ok: false, error: { kind: 'network' } })
    t.core.setBuiltin(t.source.url, 'ready')
    expect(t.last('sources:changed')?.sources[0]).toMatchObject({ state: 'ready', url: t.source.url })
    await vi.waitFor(() => expect(t.last('auth:changed')).toMatchObject({ status: 'signed-in' }))
    t.core.setBuiltin(t.source.url, 'reconnecting')
    expect(t.last('sources:changed')?.sources[0]).toMatchObject({ state: 'reconnecting' })
  })

  it('never puts the credential in an event or an IPC answer', async () => {
    const t = await setup()
    await t.core.start()
    const stored = t.store.snapshot()[VAULT_KEY] as Record<string, { data: string }>
    const credential = t.cipher.decrypt(stored.builtin.data)
    const answers = await Promise.all(INVOKE_CHANNELS.map((c) => t.invoke(c)))
    expect(JSON.stringify(answers)).not.toContain(credential)
    expect(JSON.stringify(t.events)).not.toContain(credential)
    const state = (await t.value('auth:status')) as AuthState
    expect(Object.keys(state).sort()).toEqual(['sourceId', 'status', 'storage', 'user'])
  })
})
