import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, createMemoryStore } from '@main/core'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import type { Song } from '@shared/api/models'
import type { IpcResult, PlayerSession, SourceList } from '@shared/ipc/contract'
import { parseMediaUrl } from '@shared/player/media-url'
import { createTestCipher } from '../support/test-cipher'
import { OWNER_PASSPHRASE } from '../support/phone'
import { startQuirkProxy } from '../support/quirk-proxy'

/**
 * Issue 36, one queue across sources, in main: a queued song names its data source and is resolved and
 * streamed from that one whichever is active; there is one saved session (the per-source sessions of
 * older versions fold into it); a song whose source is unreachable or removed answers unplayable with
 * that reason.
 */

const TRUSTED = { senderUrl: 'app://cadence/index.html' }

describe('songs of several data sources in one queue', () => {
  const dirs: string[] = []
  let builtin: DataSourceHandle
  let other: DataSourceHandle
  let core: ReturnType<typeof createCore>
  const store = createMemoryStore()
  let builtinId = ''
  let otherId = ''
  let otherSongs: Song[] = []
  let builtinSongs: Song[] = []
  /** Every address the core asked a data source for. */
  const asked: string[] = []

  const invoke = async <T>(channel: string, args?: unknown): Promise<T> => {
    const result = (await core.router.invoke(channel as never, args as never, TRUSTED)) as IpcResult<T>
    if (!result.ok) throw new Error(`${channel}: ${result.error.kind} ${result.error.message}`)
    return result.value
  }
  const tempDir = async (name: string) => {
    const dir = await mkdtemp(join(tmpdir(), name))
    dirs.push(dir)
    return dir
  }
  const playable = async () =>
    (await invoke<Song[]>('catalog:recommend-songs', { limit: 10 })).filter(
      (song) => song.privilege?.playable !== false,
    )

  beforeAll(async () => {
    builtin = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir: await tempDir('cadence-qa-'),
      port: 0,
      demo: 20,
    })
    other = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir: await tempDir('cadence-qb-'),
      port: 0,
      demo: 20,
    })
    core = createCore({
      builtinSourceUrl: builtin.url,
      builtinPassphrase: OWNER_PASSPHRASE,
      store,
      cipher: createTestCipher(),
      isTrustedSender: (url) => url.startsWith('app://cadence/'),
      appInfo: { name: 'Cadence', version: '0.0.0-test', platform: 'linux' },
      timeoutMs: 20_000,
      mediaDir: await tempDir('cadence-qmedia-'),
      fetch: (input, init) => {
        asked.push(String(input instanceof Request ? input.url : input))
        return fetch(input, init)
      },
    })
    await core.start()
    builtinId = (await invoke<SourceList>('sources:list')).activeId
    builtinSongs = await playable()
    otherId = (await invoke<{ id: string }>('sources:add', { url: other.url })).id
    await invoke('sources:activate', { id: otherId })
    otherSongs = await playable()
    await invoke('sources:activate', { id: builtinId })
  }, 60_000)
  afterAll(async () => {
    core?.dispose()
    await builtin?.close()
    await other?.close()
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  it('resolves and streams a song of another source than the active one from that source', async () => {
    expect((await invoke<SourceList>('sources:list')).activeId).toBe(builtinId)
    const song = otherSongs[0]!
    const resolved = await invoke<Song>('player:resolve', { id: song.id, br: 320000, sourceId: otherId })
    expect(resolved.privilege?.playable).toBe(true)
    expect(resolved.name).toBe(song.name)
    const ref = parseMediaUrl(resolved.meta!.url!)
    expect(ref?.sourceId).toBe(otherId)
    const answer = await core.media(new Request(resolved.meta!.url!))
    expect(answer.status).toBe(200)
    expect((await answer.arrayBuffer()).byteLength).toBeGreaterThan(1000)
    // A media address of the other source asked afresh (no URL remembered from a resolve) streams too.
    const fresh = otherSongs[1]!
    const address = `cadence-media://song/${encodeURIComponent(otherId)}/${encodeURIComponent(String(fresh.id))}?br=320000`
    const streamed = await core.media(new Request(address))
    expect(streamed.status).toBe(200)
    expect((await streamed.arrayBuffer()).byteLength).toBeGreaterThan(1000)
  })

  it("sends a like of another source's song to that source", async () => {
    const song = otherSongs[3]!
    const likes = () => asked.filter((url) => new URL(url).pathname === '/song/like')
    const before = likes().length
    // The other source is signed out here: its refusal is the proof the like went there.
    const result = (await core.router.invoke(
      'catalog:like',
      { id: song.id, like: true, sourceId: otherId },
      TRUSTED,
    )) as IpcResult<unknown>
    expect(
      likes()
        .slice(before)
        .map((url) => new URL(url).origin),
    ).toEqual([new URL(other.url).origin])
    expect(result.ok ? 'liked' : result.error.kind).toBe('unauthorized')
  })

  it('keeps one session whichever source is active', async () => {
    const session: PlayerSession = {
      version: 1,
      queue: {
        entries: [
          { key: 'e1', item: { ...builtinSongs[0]!, sourceId: builtinId } },
          { key: 'e2', item: { ...otherSongs[0]!, sourceId: otherId } },
        ],
        current: 1,
      },
      positionMs: 1234,
      volume: 0.5,
      muted: false,
    }
    await invoke('player:save-session', session)
    await invoke('sources:activate', { id: otherId })
    expect(await invoke<PlayerSession>('player:load-session')).toEqual(session)
    await invoke('sources:activate', { id: builtinId })
    expect(await invoke<PlayerSession>('player:load-session')).toEqual(session)
  })

  it('skips a song of a removed or unreachable source with that reason', async () => {
    const name = (await invoke<SourceList>('sources:list')).sources.find((s) => s.id === otherId)!.name
    await other.close()
    const song = otherSongs[2]!
    const down = await invoke<Song>('player:resolve', { id: song.id, br: 320000, sourceId: otherId })
    expect(down.privilege?.playable).toBe(false)
    expect(down.privilege?.reason).toBe(`${name} cannot be reached`)
    // The active source is not taken for offline by another one's silence.
    expect((await invoke<{ offline: boolean }>('offline:state')).offline).toBe(false)

    await invoke('sources:remove', { id: otherId })
    const removed = await invoke<Song>('player:resolve', { id: song.id, br: 320000, sourceId: otherId })
    expect(removed.privilege?.playable).toBe(false)
    expect(removed.privilege?.reason).toBe('Its data source was removed from Cadence')
  })
})

describe('the per-source sessions of older versions', () => {
  it('fold into one session, each song stamped with the source it was saved under', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cadence-qm-'))
    const server = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir: dir,
      port: 0,
      demo: 5,
    })
    const probe = createCore({
      builtinSourceUrl: server.url,
      builtinPassphrase: OWNER_PASSPHRASE,
      store: createMemoryStore(),
      cipher: createTestCipher(),
      isTrustedSender: (url) => url.startsWith('app://cadence/'),
      appInfo: { name: 'Cadence', version: '0.0.0-test', platform: 'linux' },
      mediaDir: join(dir, 'media'),
    })
    await probe.start()
    const ask = async <T>(channel: string, args?: unknown): Promise<T> => {
      const result = (await probe.router.invoke(channel as never, args as never, TRUSTED)) as IpcResult<T>
      if (!result.ok) throw new Error(`${channel}: ${result.error.kind} ${result.error.message}`)
      return result.value
    }
    try {
      const activeId = (await ask<SourceList>('sources:list')).activeId
      const song = { id: 7, name: 'Old', tns: [], artists: [{ id: 1, name: 'A' }] }
      const legacy = {
        version: 1,
        queue: { entries: [{ key: 'e1', item: song }], current: 0 },
        positionMs: 10,
        volume: 1,
        muted: false,
      }
      const held = createMemoryStore({
        [`session:${activeId}`]: JSON.stringify(legacy),
        'session:gone': '{}',
      })
      const migrating = createCore({
        builtinSourceUrl: server.url,
        builtinPassphrase: OWNER_PASSPHRASE,
        store: held,
        cipher: createTestCipher(),
        isTrustedSender: (url) => url.startsWith('app://cadence/'),
        appInfo: { name: 'Cadence', version: '0.0.0-test', platform: 'linux' },
        mediaDir: join(dir, 'media2'),
      })
      const result = (await migrating.router.invoke(
        'player:load-session',
        undefined as never,
        TRUSTED,
      )) as IpcResult<PlayerSession>
      migrating.dispose()
      expect(result.ok).toBe(true)
      const loaded = (result as { value: PlayerSession }).value
      expect(loaded.positionMs).toBe(10)
      expect((loaded.queue as { entries: Array<{ item: unknown }> }).entries[0]!.item).toEqual({
        ...song,
        sourceId: activeId,
      })
      const keys = Object.keys(held.snapshot())
      expect(keys).toContain('session')
      expect(keys).not.toContain(`session:${activeId}`)
    } finally {
      probe.dispose()
      await server.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('a song of a source that plays only for signed-in users', () => {
  it('is unplayable with the reason while that source is signed out', async () => {
    const dirA = await mkdtemp(join(tmpdir(), 'cadence-qs-a-'))
    const dirB = await mkdtemp(join(tmpdir(), 'cadence-qs-b-'))
    const builtin = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir: dirA,
      port: 0,
      demo: 5,
    })
    const upstream = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir: dirB,
      port: 0,
      demo: 5,
    })
    const proxy = await startQuirkProxy(upstream.url, 'netease', { requireUid: true })
    const core = createCore({
      builtinSourceUrl: builtin.url,
      builtinPassphrase: OWNER_PASSPHRASE,
      store: createMemoryStore(),
      cipher: createTestCipher(),
      isTrustedSender: (url) => url.startsWith('app://cadence/'),
      appInfo: { name: 'Cadence', version: '0.0.0-test', platform: 'linux' },
      timeoutMs: 20_000,
      mediaDir: join(dirA, 'media'),
    })
    const ask = async <T>(channel: string, args?: unknown): Promise<T> => {
      const result = (await core.router.invoke(channel as never, args as never, TRUSTED)) as IpcResult<T>
      if (!result.ok) throw new Error(`${channel}: ${result.error.kind} ${result.error.message}`)
      return result.value
    }
    try {
      await core.start()
      const id = (await ask<{ id: string }>('sources:add', { url: proxy.url })).id
      const name = (await ask<SourceList>('sources:list')).sources.find((s) => s.id === id)!.name
      const song = await ask<Song>('player:resolve', { id: 1, br: 320000, sourceId: id })
      expect(song.privilege?.playable).toBe(false)
      expect(song.privilege?.reason).toBe(`Signed out of ${name}: sign in there to play its songs`)
    } finally {
      core.dispose()
      await proxy.close()
      await upstream.close()
      await builtin.close()
      await rm(dirA, { recursive: true, force: true })
      await rm(dirB, { recursive: true, force: true })
    }
  }, 60_000)
})
