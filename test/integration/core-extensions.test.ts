import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { PLACEHOLDER_SONG_ID } from '@shared/ipc/history'
import { createCore, createMemoryStore } from '@main/core'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import type { Playlist, SearchResult, Song } from '@shared/api/models'
import type { Capabilities, EventMap, EventName, IpcResult, LikedSongs } from '@shared/ipc/contract'
import { createTestCipher } from '../support/test-cipher'
import * as phone from '../support/phone'
import { likeOnPhone, phoneCredential } from '../support/phone-session'
import { startQuirkProxy } from '../support/quirk-proxy'
import type { QuirkProxy } from '../support/quirk-proxy'

const APP = { senderUrl: 'app://cadence/index.html' }

/**
 * What the core does with the endpoints real servers answer beyond the document: on a netease-like
 * source (the quirk proxy with the adapter's extensions) album pages, liked songs, account playlists;
 * on the reference server (spec only) each is found absent by its 404, remembered, and refused with
 * plain words.
 */
describe('the core and the endpoints beyond the document', () => {
  let server: DataSourceHandle
  let dataDir: string
  const closers: Array<() => Promise<void> | void> = []

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-core-extensions-'))
    server = await startDataSource({ ownerPassphrase: phone.OWNER_PASSPHRASE, dataDir, port: 0, demo: 80 })
  })
  afterAll(async () => {
    for (const close of closers.reverse()) await close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  async function signedInOn(url: string) {
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
    const invoke = async <T>(channel: string, args?: unknown): Promise<IpcResult<T>> =>
      (await core.router.invoke(channel, args, APP)) as IpcResult<T>
    const value = async <T>(channel: string, args?: unknown): Promise<T> => {
      const result = await invoke<T>(channel, args)
      if (!result.ok) throw new Error(`${channel}: ${result.error.kind} ${result.error.message}`)
      return result.value
    }
    const added = await value<{ id: string }>('sources:add', { url })
    await value('sources:activate', { id: added.id })
    await value('auth:start-qr')
    await vi.waitFor(() => expect(last('auth:qr')?.phase).toBe('waiting'))
    await phone.confirmOnPhone(last('auth:qr')!.qrurl!)
    await vi.waitFor(() => expect(last('auth:changed')?.status).toBe('signed-in'), { timeout: 10_000 })
    return { core, store, events, last, invoke, value, sourceId: added.id }
  }

  async function netease() {
    const proxy: QuirkProxy = await startQuirkProxy(server.url, 'netease', { extensions: true })
    closers.push(() => proxy.close())
    return { proxy, ...(await signedInOn(proxy.url)) }
  }

  const songsOf = async (app: Awaited<ReturnType<typeof signedInOn>>, n: number): Promise<Song[]> => {
    const found = await app.value<Song[]>('catalog:recommend-songs', { limit: 50 })
    // Real songs: NeteaseMusicAdapter's recommendations start with its `free-app` placeholder.
    return found
      .filter((s) => s.privilege?.playable !== false && String(s.id) !== PLACEHOLDER_SONG_ID)
      .slice(0, n)
  }

  it('reads an album from /album/detail: its tracks in order', async () => {
    const app = await netease()
    const result = await app.value<SearchResult>('catalog:search', { keywords: 'a', limit: 20 })
    const album = result.albums[0]!
    const detail = await app.value<Playlist>('albums:detail', { id: album.id })
    const upstream = (await (await fetch(`${server.url}/playlist/detail?id=${album.id}`)).json()) as {
      data: Playlist
    }
    expect(detail.type).toBe('album')
    expect(detail.songs!.map((s) => s.id)).toEqual(upstream.data.songs!.map((s) => s.id))
    expect(app.proxy.hits.get('/album/detail')).toBe(1)
    expect((await app.value<Capabilities>('capabilities:get'))['album-detail']).toBe('present')
  })

  it('on a spec-only source, finds /album/detail absent by its 404, says so, and never asks again', async () => {
    const app = await signedInOn(server.url)
    const first = await app.invoke('albums:detail', { id: 1 })
    expect(first.ok).toBe(false)
    if (!first.ok) {
      expect(first.error.kind).toBe('unavailable')
      expect(first.error.message).toContain('no album pages')
    }
    expect((await app.value<Capabilities>('capabilities:get'))['album-detail']).toBe('absent')
    expect(app.last('capabilities:changed')?.capabilities['album-detail']).toBe('absent')
    // Remembered for the source, in the store too.
    expect(app.store.get(`capabilities:${app.sourceId}`)).toMatchObject({ absent: ['album-detail'] })
    const again = await app.invoke('albums:detail', { id: 1 })
    expect(again.ok).toBe(false)
  })

  it('loads the liked songs at sign-in, picks up a like made on the phone on refresh, and follows likes made here', async () => {
    const app = await netease()
    const [elsewhere, here] = await songsOf(app, 2)
    const credential = await phoneCredential(server.url)
    await likeOnPhone(server.url, credential, elsewhere!.id)
    await vi.waitFor(() => expect(app.last('likes:changed')?.ids).not.toBeNull())

    const refreshed = await app.value<LikedSongs>('likes:refresh')
    expect(refreshed.ids).toContain(String(elsewhere!.id))
    expect(refreshed.ids).not.toContain(String(here!.id))

    await app.value('catalog:like', { id: here!.id, like: true })
    expect(app.last('likes:changed')?.ids).toContain(String(here!.id))
    await app.value('catalog:like', { id: here!.id, like: false })
    expect(app.last('likes:changed')?.ids).not.toContain(String(here!.id))

    // GET /song/like for one song, where the source has it.
    expect(await app.value('likes:song', { id: elsewhere!.id })).toEqual({ id: elsewhere!.id, liked: true })
    await likeOnPhone(server.url, credential, elsewhere!.id, false)
  })

  it('the liked songs on a spec-only source come from the liked playlist too; /song/like state is absent', async () => {
    const app = await signedInOn(server.url)
    const [song] = await songsOf(app, 1)
    const credential = await phoneCredential(server.url)
    await likeOnPhone(server.url, credential, song!.id)
    const refreshed = await app.value<LikedSongs>('likes:refresh')
    expect(refreshed.ids).toContain(String(song!.id))
    const asked = await app.invoke('likes:song', { id: song!.id })
    expect(asked.ok).toBe(false)
    if (!asked.ok) expect(asked.error.kind).toBe('unavailable')
    await likeOnPhone(server.url, credential, song!.id, false)
  })

  it('creates a playlist in the account, adds two songs (newest first), removes one, subscribes to another', async () => {
    const app = await netease()
    const [a, b] = await songsOf(app, 2)
    const created = await app.value<Playlist>('account:create-playlist', { name: 'Made in Cadence' })
    expect(Number(created.id)).toBeGreaterThan(2 ** 32)
    await app.value('account:add-songs', { id: created.id, songIds: [a!.id] })
    await app.value('account:add-songs', { id: created.id, songIds: [b!.id] })
    const held = app.proxy.extensions!.playlists.get(Number(created.id))!
    expect(held.songs).toEqual([Number(b!.id), Number(a!.id)])
    const mine = await app.value<Playlist[]>('catalog:user-playlists', {})
    expect(mine.map((p) => String(p.id))).toContain(String(created.id))

    await app.value('account:remove-songs', { id: created.id, songIds: [a!.id] })
    expect(app.proxy.extensions!.playlists.get(Number(created.id))!.songs).toEqual([Number(b!.id)])

    const other = (await app.value<Playlist[]>('catalog:recommend-playlists', { limit: 10 })).find(
      (p) => String(p.creator?.id) !== String(app.core.auth.userId()),
    )!
    await app.value('account:subscribe', { id: other.id, subscribe: true })
    const after = await app.value<Playlist[]>('catalog:user-playlists', {})
    expect(after.map((p) => String(p.id))).toContain(String(other.id))
  })

  it('on a spec-only source, creating a playlist in the account is refused as unavailable and remembered', async () => {
    const app = await signedInOn(server.url)
    const result = await app.invoke('account:create-playlist', { name: 'Nowhere' })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.kind).toBe('unavailable')
    expect((await app.value<Capabilities>('capabilities:get'))['playlist-create']).toBe('absent')
  })
})
