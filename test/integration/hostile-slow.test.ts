import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, createMemoryStore } from '@main/core'
import type { Core } from '@main/core'
import { NOT_OFFLINE } from '@main/core/offline'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import type { Song } from '@shared/api/models'
import type { IpcResult, OfflineState } from '@shared/ipc/contract'
import { mediaUrl } from '@shared/player/media-url'
import { createTestCipher } from '../support/test-cipher'
import { OWNER_PASSPHRASE } from '../support/phone'
import { startHostileSource } from '../support/hostile-slow-source'
import type { HostileSource } from '../support/hostile-slow-source'

/**
 * Issue 33, item 5: one slow answer must not turn the whole app offline. A hostile data source (the
 * reference server behind a proxy on 127.0.0.1) answers everything at once except the `/song/detail` of one
 * song, which it trickles (headers, then a byte a second for 60 s), or of another, which it never answers
 * at all. Each gives up after the client's timeout; the source stays online and the next song resolves
 * and plays through the core's IPC handlers and media scheme. A closed port (connection refused) is
 * offline. The renderer's side: test/component/hostile-slow.test.ts and test/e2e/hostile-slow.test.ts.
 */

const APP = { senderUrl: 'app://cadence/index.html' }
const TIMEOUT_MS = 3000

/** A core whose built-in source is `url` (the hostile proxy), with a short timeout, offline states kept. */
async function startCore(url: string, mediaDir: string, offlineEvents: OfflineState[]): Promise<Core> {
  const core = createCore({
    builtinSourceUrl: url,
    builtinPassphrase: OWNER_PASSPHRASE,
    store: createMemoryStore(),
    cipher: createTestCipher(),
    isTrustedSender: (sender) => sender.startsWith('app://cadence/'),
    appInfo: { name: 'Cadence', version: '0.0.0-test', platform: 'linux' },
    timeoutMs: TIMEOUT_MS,
    mediaDir,
  })
  core.events.subscribe((event, payload) => {
    if (event === 'offline:changed') offlineEvents.push(payload as OfflineState)
  })
  await core.start()
  return core
}

describe('a slow answer from a hostile data source', () => {
  let dataDir: string
  let mediaDir: string
  let server: DataSourceHandle
  let hostile: HostileSource
  let core: Core
  const offlineEvents: OfflineState[] = []
  let songs: Song[] = []

  const invoke = <T>(channel: string, args?: unknown) =>
    core.router.invoke(channel as never, args as never, APP) as Promise<IpcResult<T>>
  const value = async <T>(channel: string, args?: unknown): Promise<T> => {
    const result = await invoke<T>(channel, args)
    if (!result.ok) throw new Error(`${channel}: ${result.error.kind} ${result.error.message}`)
    return result.value
  }
  const offlineState = () => value<OfflineState>('offline:state')
  const statusChecks = () => hostile.hits.get('/connect/status') ?? 0

  /** Plays a song as the renderer does: `player:resolve`, then the whole file from the media scheme. */
  async function play(song: Song): Promise<{ status: number; bytes: number; size?: number }> {
    const resolved = await value<Song>('player:resolve', { id: song.id, br: 320000 })
    const url = resolved.meta?.url
    if (!url) throw new Error(`${song.name} does not play: ${resolved.privilege?.reason}`)
    const answer = await core.media(new Request(url))
    const bytes = (await answer.arrayBuffer()).byteLength
    return { status: answer.status, bytes, size: resolved.meta?.size }
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-hostile-slow-src-'))
    mediaDir = await mkdtemp(join(tmpdir(), 'cadence-hostile-slow-media-'))
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 40 })
    hostile = await startHostileSource(server.url)
    core = await startCore(hostile.url, mediaDir, offlineEvents)
    const recommended = await value<Song[]>('catalog:recommend-songs', { limit: 20 })
    songs = recommended.filter((song) => song.privilege?.playable !== false)
    expect(songs.length).toBeGreaterThanOrEqual(7)
  })
  afterAll(async () => {
    core?.dispose()
    await hostile?.close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
    await rm(mediaDir, { recursive: true, force: true })
  })

  it('a /song/detail trickled past the timeout fails that song alone; the source stays online and the next song plays', async () => {
    const [slow, next, after] = songs
    hostile.trickle.add(String(slow!.id))

    const failed = await invoke<Song>('player:resolve', { id: slow!.id, br: 320000 })
    // The slow song says why (the answer did not finish in time), not "Not available offline".
    expect(failed.ok).toBe(false)
    if (!failed.ok) expect(failed.error).toMatchObject({ kind: 'timeout', endpoint: '/song/detail' })
    expect(hostile.trickled()).toBeGreaterThan(19) // the answer had begun: headers and bytes arrived
    expect(offlineEvents).toEqual([])
    expect(await offlineState()).toEqual({ offline: false })

    // The next songs resolve and play whole, from the network.
    for (const song of [next!, after!]) {
      const played = await play(song)
      expect(played.status).toBe(200)
      expect(played.bytes).toBe(played.size)
    }
    expect(offlineEvents).toEqual([])
  })

  it("the media scheme's own /song/detail trickled past the timeout fails that request, not the source", async () => {
    const slow = songs[0]!
    const answer = await core.media(
      new Request(mediaUrl({ sourceId: 'builtin', songId: String(slow.id), br: 320000 })),
    )
    await answer.body?.cancel()
    expect(answer.status).toBe(502)
    expect(offlineEvents).toEqual([])
    expect(await offlineState()).toEqual({ offline: false })
    const played = await play(songs[3]!)
    expect(played.status).toBe(200)
    expect(played.bytes).toBe(played.size)
  })

  it('a /song/detail that never answers at all: one /connect/status shows the source is there, so it stays online', async () => {
    const [silent, next] = [songs[4]!, songs[5]!]
    hostile.silent.add(String(silent.id))
    const checksBefore = statusChecks()

    const failed = await invoke<Song>('player:resolve', { id: silent.id, br: 320000 })
    expect(failed.ok).toBe(false)
    if (!failed.ok) expect(failed.error).toMatchObject({ kind: 'timeout', endpoint: '/song/detail' })
    expect(statusChecks() - checksBefore).toBe(1)
    expect(offlineEvents).toEqual([])
    expect(await offlineState()).toEqual({ offline: false })
    const played = await play(next)
    expect(played.status).toBe(200)
    expect(played.bytes).toBe(played.size)
  })

  it('a source that takes connections and answers nothing, not even /connect/status, is offline', async () => {
    hostile.hang = true
    const checksBefore = statusChecks()
    const answer = await value<Song>('player:resolve', { id: songs[6]!.id, br: 128000 })
    expect(answer.privilege).toMatchObject({ playable: false, reason: NOT_OFFLINE })
    expect(statusChecks() - checksBefore).toBe(1)
    expect(offlineEvents).toHaveLength(1)
    expect(offlineEvents[0]).toMatchObject({ offline: true })
    hostile.hang = false
  })
})

describe('a data source whose port is closed', () => {
  let dataDir: string
  let mediaDir: string
  let server: DataSourceHandle
  let hostile: HostileSource
  let core: Core
  const offlineEvents: OfflineState[] = []

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-hostile-closed-src-'))
    mediaDir = await mkdtemp(join(tmpdir(), 'cadence-hostile-closed-media-'))
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 20 })
    hostile = await startHostileSource(server.url)
    core = await startCore(hostile.url, mediaDir, offlineEvents)
  })
  afterAll(async () => {
    core?.dispose()
    await hostile?.close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
    await rm(mediaDir, { recursive: true, force: true })
  })

  it('after a slow answer left it online, connection refused turns offline mode on at the first call', async () => {
    const invoke = <T>(channel: string, args?: unknown) =>
      core.router.invoke(channel as never, args as never, APP) as Promise<IpcResult<T>>
    const listed = await invoke<Song[]>('catalog:recommend-songs', { limit: 4 })
    if (!listed.ok) throw new Error(listed.error.message)
    const [slow, other] = listed.value
    hostile.trickle.add(String(slow!.id))
    expect((await invoke('player:resolve', { id: slow!.id, br: 128000 })).ok).toBe(false)
    expect(offlineEvents).toEqual([])

    await hostile.close()
    const answer = await invoke<Song>('player:resolve', { id: other!.id, br: 128000 })
    expect(answer).toMatchObject({ ok: true, value: { privilege: { playable: false, reason: NOT_OFFLINE } } })
    expect(offlineEvents).toHaveLength(1)
    expect(offlineEvents[0]).toMatchObject({ offline: true })
    expect(await invoke('offline:state')).toMatchObject({ ok: true, value: { offline: true } })
  })
})
