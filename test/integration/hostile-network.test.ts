import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestCore, invokeOk, TRUSTED } from '../support/test-core'
import { type Core } from '@main/core'
import type { LookupAll } from '@main/core/net'
import type { Song } from '@shared/api/models'
import type { DataSourceInfo, DownloadsSummary, IpcResult, QrEvent } from '@shared/ipc/contract'

/**
 * Issue 33, items 3, 4 and 7, played by a hostile data source on 127.0.0.1: its `meta.url`, its media
 * route's redirects and its covers point main at another machine of the user's network (a listener on
 * 127.0.0.2, which counts every request it gets), directly, through a chain of redirects, through a
 * public-looking name or a `.local` name that resolves there; its `qrurl` names another origin. Main
 * must request nothing there, unless the user allowed that host for that one source.
 */

const AUDIO = Buffer.from(Array.from({ length: 40_000 }, (_, i) => (i * 7) & 0xff))
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])

/** An HTTP listener on `host` answering audio, images and redirects, counting every request. */
async function listener(
  host: string,
  route: (url: URL, req: IncomingMessage, res: ServerResponse) => boolean = () => false,
) {
  const hits: string[] = []
  const server = createServer((req, res) => {
    hits.push(req.url ?? '/')
    const url = new URL(req.url ?? '/', 'http://x')
    if (route(url, req, res)) return
    if (url.pathname.endsWith('.png')) {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PNG.length }).end(PNG)
      return
    }
    if (url.pathname.startsWith('/go/')) {
      res.writeHead(302, { Location: decodeURIComponent(url.pathname.slice(4)) }).end()
      return
    }
    res.writeHead(200, { 'Content-Type': 'audio/mpeg', 'Content-Length': AUDIO.length }).end(AUDIO)
  })
  await new Promise<void>((done) => server.listen(0, host, done))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no address')
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    hits,
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  }
}

const ok = (data: unknown) => ({ code: 0, message: 'Success', data })
const send = (res: ServerResponse, body: unknown, status = 200) =>
  void res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body))

/** A data source whose songs' `meta.url` and covers the test chooses, and whose `qrurl` it chooses too. */
async function hostileSource(host: string) {
  const songs = new Map<string, { url: string; cover?: string }>()
  const qr = { url: '' }
  const source = await listener(host, (url, _req, res) => {
    const q = url.searchParams
    switch (url.pathname) {
      case '/connect/qr/key':
        return (send(res, ok({ unikey: 'k1' })), true)
      case '/connect/qr/create':
        return (send(res, ok({ qrurl: qr.url || `${source.url}/phone/k1`, qrimg: '' })), true)
      case '/connect/qr/check':
        return (send(res, ok({ status: 0, cookie: '' })), true)
      case '/connect/status':
        return (send(res, { code: -1, message: 'Please log in first', data: null }, 401), true)
      case '/song/detail': {
        const id = q.get('id') ?? ''
        const song = songs.get(id)
        if (!song) return (send(res, { code: 404, message: 'No such song', data: null }, 404), true)
        const detail: Record<string, unknown> = {
          id: Number(id),
          name: `Song ${id}`,
          artists: [{ id: 1, name: 'Artist' }],
          album: { id: Number(id), name: `Album ${id}`, ...(song.cover ? { cover: song.cover } : {}) },
          duration: 100,
          privilege: { playable: true, bitrates: [320000], maxBitrate: 320000 },
          meta: { url: song.url, size: AUDIO.length, bitrate: 320000 },
        }
        return (send(res, ok(detail)), true)
      }
      default:
        return false
    }
  })
  return { ...source, songs, qr }
}

describe('a hostile data source and the network around it', () => {
  let mediaDir: string
  let lan: Awaited<ReturnType<typeof listener>>
  let hostile: Awaited<ReturnType<typeof hostileSource>>
  let home: Awaited<ReturnType<typeof hostileSource>>
  let core: Core
  let hostileId: string
  let homeId: string
  const opened: string[] = []
  const notifier = { supported: () => true, appFocused: () => false, show: vi.fn() }
  /** Names the test's DNS knows, and how often each was asked. */
  const names = new Map<string, string[]>()
  const asked = new Map<string, number>()
  const lookup: LookupAll = async (hostname) => {
    asked.set(hostname, (asked.get(hostname) ?? 0) + 1)
    const addresses = names.get(hostname)
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }

  const invoke = <T>(channel: string, args?: unknown) => invokeOk<T>(core, channel, args)
  const attempt = (channel: string, args?: unknown) =>
    core.router.invoke(channel as never, args as never, TRUSTED) as Promise<IpcResult<unknown>>

  /** Plays a song as the renderer does: `player:resolve`, then the media scheme's address. */
  async function play(id: number) {
    const resolved = await invoke<Song>('player:resolve', { id, br: 320000 })
    const answer = await core.media(new Request(resolved.meta!.url!))
    return { status: answer.status, bytes: Buffer.from(await answer.arrayBuffer()) }
  }
  const key = (sourceId: string, id: number) => ({ sourceId, songId: String(id), bitrate: 320000 })

  beforeAll(async () => {
    mediaDir = await mkdtemp(join(tmpdir(), 'cadence-hostile-net-'))
    lan = await listener('127.0.0.2')
    hostile = await hostileSource('127.0.0.1')
    home = await hostileSource('127.0.0.3')
    core = createTestCore({
      autoSignInBuiltin: false,
      probeSources: false,
      timeoutMs: 5000,
      mediaDir,
      lookup,
      openExternal: (url) => void opened.push(url),
      listen: { notifier },
    })
    hostileId = (await invoke<DataSourceInfo>('sources:add', { url: hostile.url })).id
    homeId = (await invoke<DataSourceInfo>('sources:add', { url: home.url })).id
    await invoke('sources:activate', { id: hostileId })
  })
  afterAll(async () => {
    core?.dispose()
    await Promise.all([lan?.close(), hostile?.close(), home?.close()])
    await rm(mediaDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
  })

  it('never requests media its source points at another address of the network', async () => {
    hostile.songs.set('1', { url: `${lan.url}/song1.mp3` })
    const answer = await play(1)
    expect(answer.status).toBe(403)
    expect(lan.hits).toEqual([])
  })

  it('follows no redirect from the source to another address of the network', async () => {
    hostile.songs.set('2', { url: `${hostile.url}/go/${encodeURIComponent(`${lan.url}/song2.mp3`)}` })
    const answer = await play(2)
    expect(answer.status).toBe(403)
    // The source's own host answered the redirect; where it pointed was never asked.
    expect(hostile.hits.filter((h) => h.startsWith('/go/')).length).toBeGreaterThan(0)
    expect(lan.hits).toEqual([])
  })

  it('checks every hop on the address it resolves to: a public-looking name that resolves there', async () => {
    names.set('cdn.example.com', ['127.0.0.2'])
    const leave = `http://cdn.example.com:${lan.port}/song3.mp3`
    const chain = `${hostile.url}/go/${encodeURIComponent(`${hostile.url}/go/${encodeURIComponent(leave)}`)}`
    hostile.songs.set('3', { url: chain })
    expect((await play(3)).status).toBe(403)
    expect(lan.hits).toEqual([])
    expect(asked.get('cdn.example.com')).toBeGreaterThan(0)
  })

  it('refuses a .local name on the network unless the user allowed that host for the source', async () => {
    names.set('nas.local', ['127.0.0.2'])
    hostile.songs.set('4', { url: `http://nas.local:${lan.port}/song4.mp3` })
    expect((await play(4)).status).toBe(403)
    expect(lan.hits).toEqual([])

    const changed = await invoke<DataSourceInfo>('sources:set-local-host', {
      id: hostileId,
      host: 'NAS.local',
    })
    expect(changed.localHost).toBe('nas.local')
    const answer = await play(4)
    expect(answer.status).toBe(200)
    expect(answer.bytes.equals(AUDIO)).toBe(true)
    expect(lan.hits.length).toBeGreaterThan(0)
    await invoke('sources:set-local-host', { id: hostileId, host: '' })
    lan.hits.length = 0
  })

  it('connects to the address it checked, not to what the name resolves to later', async () => {
    // The name means the source's own address to the check; nothing else (the system's DNS does not
    // know it): the song plays only if the connection goes where the check looked.
    names.set('media.rebind.test', ['127.0.0.1'])
    hostile.songs.set('5', { url: `http://media.rebind.test:${hostile.port}/song5.mp3` })
    const answer = await play(5)
    expect(answer.status).toBe(200)
    expect(answer.bytes.equals(AUDIO)).toBe(true)
    expect(hostile.hits).toContain('/song5.mp3')
    expect(lan.hits).toEqual([])
  })

  it('never fetches a cover naming another address: playing, downloading, notifying', async () => {
    hostile.songs.set('6', { url: `${hostile.url}/song6.mp3`, cover: `${lan.url}/cover6.png` })
    hostile.songs.set('7', { url: `${hostile.url}/song7.mp3`, cover: `${hostile.url}/cover7.png` })
    expect((await play(6)).status).toBe(200)
    expect((await play(7)).status).toBe(200)
    await expect.poll(() => core.offline.extras.read(key(hostileId, 7)), { timeout: 20_000 }).toBeDefined()
    await expect.poll(() => core.offline.extras.read(key(hostileId, 6)), { timeout: 20_000 }).toBeDefined()
    // The source's own cover is kept; the other one is not even asked for.
    expect((await core.offline.extras.read(key(hostileId, 7)))?.cover).toBeDefined()
    expect((await core.offline.extras.read(key(hostileId, 6)))?.cover).toBeUndefined()
    expect(hostile.hits).toContain('/cover7.png')

    hostile.songs.set('8', { url: `${hostile.url}/song8.mp3`, cover: `${lan.url}/cover8.png` })
    const row = { id: 8, name: 'Song 8', tns: [], artists: [{ id: 1, name: 'Artist' }] }
    await invoke('downloads:add', { songs: [row], cover: `${lan.url}/list.png` })
    await expect
      .poll(async () => (await invoke<DownloadsSummary>('downloads:summary')).done, { timeout: 20_000 })
      .toBe(1)
    await expect.poll(() => core.offline.extras.read(key(hostileId, 8)), { timeout: 20_000 }).toBeDefined()

    await invoke('settings:update', { notifyTrackChange: true })
    await invoke('notify:track-changed', { id: 9, name: 'Song 9', artists: 'A', cover: `${lan.url}/n9.png` })
    expect(notifier.show).toHaveBeenCalledTimes(1)
    expect(notifier.show.mock.calls[0]![0].icon).toBeUndefined()
    expect(lan.hits).toEqual([])
  })

  it('fetches a cover only under the policy of the source that named it', async () => {
    // The home source may reach 127.0.0.2 (its NAS); the hostile one naming the same host still may not.
    await invoke('sources:set-local-host', { id: homeId, host: '127.0.0.2' })
    hostile.songs.set('10', { url: `${hostile.url}/song10.mp3`, cover: `${lan.url}/shared.png` })
    expect((await play(10)).status).toBe(200)
    await expect.poll(() => core.offline.extras.read(key(hostileId, 10)), { timeout: 20_000 }).toBeDefined()
    await invoke('notify:track-changed', {
      id: 10,
      name: 'Song 10',
      artists: 'A',
      cover: `${lan.url}/n10.png`,
    })
    expect(lan.hits).toEqual([])

    await invoke('sources:activate', { id: homeId })
    home.songs.set('11', { url: `${lan.url}/song11.mp3`, cover: `${lan.url}/shared.png` })
    const answer = await play(11)
    expect(answer.status).toBe(200)
    expect(answer.bytes.equals(AUDIO)).toBe(true)
    await expect.poll(() => core.offline.extras.read(key(homeId, 11)), { timeout: 20_000 }).toBeDefined()
    expect((await core.offline.extras.read(key(homeId, 11)))?.cover).toBeDefined()
    expect(lan.hits).toContain('/shared.png')
    await invoke('sources:activate', { id: hostileId })
    lan.hits.length = 0
  })

  describe('"Open here" for the sign-in page', () => {
    const startQr = async () => {
      await invoke('auth:start-qr')
      await expect
        .poll(async () => (await invoke<QrEvent | null>('auth:qr-state'))?.phase, { timeout: 20_000 })
        .toBe('waiting')
    }

    it('opens a page only on the source’s own origin, and says so otherwise', async () => {
      hostile.qr.url = `${lan.url}/phone/k1`
      await startQr()
      const result = await attempt('auth:open-qr-page')
      await invoke('auth:cancel-qr')
      expect(result.ok).toBe(false)
      if (!result.ok) {
        expect(result.error.kind).toBe('forbidden')
        expect(result.error.message).toContain(lan.url)
      }
      // The same machine under another name is another origin too.
      hostile.qr.url = `${hostile.url.replace('127.0.0.1', 'localhost')}/phone/k1`
      await startQr()
      expect((await attempt('auth:open-qr-page')).ok).toBe(false)
      await invoke('auth:cancel-qr')
      expect(opened).toEqual([])
      expect(lan.hits).toEqual([])

      hostile.qr.url = `${hostile.url}/phone/k1`
      await startQr()
      await invoke('auth:open-qr-page')
      await invoke('auth:cancel-qr')
      expect(opened).toEqual([`${hostile.url}/phone/k1`])
    })
  })
})
