import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Core } from '@main/core'
import { NOT_OFFLINE } from '@main/core/offline'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import type { Song } from '@shared/api/models'
import type { DownloadsSummary, IpcResult, OfflineState } from '@shared/ipc/contract'
import { createTestCore, invokeOk, TRUSTED } from '../support/test-core'
import { OWNER_PASSPHRASE } from '../support/phone'
import { asRow } from '../support/collection-row'

/**
 * Issue 23 against the reference server: a downloaded playlist is on disk whole and checked; with the
 * server stopped the app says so once, answers every song from the disk or skips it with the reason, and
 * comes back when the server does, without a restart.
 */

describe('offline mode against the reference server', () => {
  let dataDir: string
  let mediaDir: string
  let server: DataSourceHandle
  let port: number
  let core: Core
  const offlineEvents: OfflineState[] = []
  /** Every request for audio the core made to the data source. */
  const mediaRequests: string[] = []
  const detailRequests: string[] = []

  const invoke = <T>(channel: string, args?: unknown) => invokeOk<T>(core, channel, args)

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-offline-src-'))
    mediaDir = await mkdtemp(join(tmpdir(), 'cadence-offline-media-'))
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 40 })
    port = Number(new URL(server.url).port)
    core = createTestCore({
      builtinSourceUrl: server.url,
      builtinPassphrase: OWNER_PASSPHRASE,
      timeoutMs: 3000,
      mediaDir,
      fetch: (input, init) => {
        const url = String(input instanceof Request ? input.url : input)
        const path = new URL(url).pathname
        if (path.startsWith('/media/') && !path.startsWith('/media/cover/')) mediaRequests.push(url)
        if (path === '/song/detail') detailRequests.push(url)
        return fetch(input, init)
      },
    })
    core.events.subscribe((event, payload) => {
      if (event === 'offline:changed') offlineEvents.push(payload as OfflineState)
    })
    await core.start()
  })
  afterAll(async () => {
    core?.dispose()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
    await rm(mediaDir, { recursive: true, force: true })
  })

  let playlist: Song[] = []
  let other: Song
  let listCover = ''
  let played: Song
  let playedBytes: Buffer
  /** The playlist's songs as the server described them before it stopped. */
  const fromServer = new Map<string, Song>()

  /** Plays a song as the renderer does: `player:resolve`, then the whole file from the media scheme. */
  async function play(
    song: Song,
    range?: string,
  ): Promise<{ status: number; bytes: Buffer; url: string; contentRange: string | null }> {
    const resolved = await invoke<Song>('player:resolve', { id: song.id, br: 320000 })
    const url = resolved.meta?.url
    if (!url) throw new Error(`no url: ${resolved.privilege?.reason}`)
    const answer = await core.media(new Request(url, range ? { headers: { Range: range } } : {}))
    const bytes = Buffer.from(await answer.arrayBuffer())
    return { status: answer.status, bytes, url, contentRange: answer.headers.get('content-range') }
  }
  const keyOf = (song: Song) => ({ sourceId: 'builtin', songId: String(song.id), bitrate: 320000 })

  /**
   * Plays a song as the renderer's output reads it: the WAV header's 64 KB, then ranges to the end, each
   * from where the last answer ended (a copy still arriving answers as far as it has come).
   */
  async function playInRanges(song: Song): Promise<Buffer> {
    const first = await play(song, 'bytes=0-65535')
    expect(first.status).toBe(206)
    const total = Number(/\/(\d+)$/.exec(first.contentRange ?? '')?.[1])
    const parts = [first.bytes]
    for (let start = 65536; start < total;) {
      const end = Math.min(total, start + 400_000) - 1
      const answer = await core.media(new Request(first.url, { headers: { Range: `bytes=${start}-${end}` } }))
      expect(answer.status).toBe(206)
      const part = Buffer.from(await answer.arrayBuffer())
      expect(part.byteLength).toBeGreaterThan(0)
      parts.push(part)
      start += part.byteLength
    }
    return Buffer.concat(parts)
  }

  it('keeps a played song: its first play fetches the audio once, the second not at all', async () => {
    const songs = await invoke<Song[]>('catalog:recommend-songs', { limit: 10 })
    played = songs[9]!
    const mediaBefore = mediaRequests.length
    const detailBefore = detailRequests.length
    playedBytes = await playInRanges(played)
    await expect.poll(() => core.offline.cache.has(keyOf(played)), { timeout: 20_000 }).toBe(true)
    // One request for the audio (the copy the player read), one /song/detail (player:resolve).
    expect(mediaRequests.length - mediaBefore).toBe(1)
    expect(detailRequests.length - detailBefore).toBe(1)
    const file = await core.offline.cache.lookup(keyOf(played))
    expect((await readFile(file!.path)).equals(playedBytes)).toBe(true)
    expect(createHash('md5').update(playedBytes).digest('hex')).toBe(file!.entry.md5)
    // Its details and lyrics are kept beside it, so starting it again asks the data source nothing.
    await expect.poll(() => core.offline.extras.read(keyOf(played)), { timeout: 20_000 }).toBeDefined()
    const detailsBefore = detailRequests.length
    const before = mediaRequests.length
    const again = await play(played)
    const seek = await play(played, 'bytes=1000-1999')
    expect(mediaRequests.length).toBe(before)
    expect(detailRequests.length).toBe(detailsBefore)
    expect(again.bytes.equals(playedBytes)).toBe(true)
    expect(seek.status).toBe(206)
    expect(seek.bytes.equals(playedBytes.subarray(1000, 2000))).toBe(true)
  })

  it('fetches a cached file again when it was damaged on disk, and never serves the damage', async () => {
    const file = await core.offline.cache.lookup(keyOf(played))
    const damaged = Buffer.from(playedBytes)
    damaged.fill(0, 100, 200)
    await writeFile(file!.path, damaged)
    const before = mediaRequests.length
    const answer = await play(played)
    expect(answer.bytes.equals(playedBytes)).toBe(true) // from the network while the cache fetches again
    await expect.poll(() => core.offline.cache.has(keyOf(played)), { timeout: 20_000 }).toBe(true)
    expect(mediaRequests.length).toBeGreaterThan(before)
    const refetched = await core.offline.cache.lookup(keyOf(played))
    expect((await readFile(refetched!.path)).equals(playedBytes)).toBe(true)
  })

  it('downloads a playlist whole, each file checked against the server', async () => {
    const songs = await invoke<Song[]>('catalog:recommend-songs', { limit: 6 })
    playlist = songs.slice(0, 5)
    other = songs[5]!
    // Downloaded as a playlist's songs, with that playlist's own header cover.
    const [list] = await invoke<Array<{ cover?: string }>>('catalog:recommend-playlists', { limit: 1 })
    listCover = list!.cover!
    await invoke<DownloadsSummary>('downloads:add', { songs: playlist.map(asRow), cover: listCover })
    await expect
      .poll(async () => (await invoke<DownloadsSummary>('downloads:summary')).done, { timeout: 20_000 })
      .toBe(5)
    for (const song of playlist) {
      const file = await core.offline.playable({
        sourceId: 'builtin',
        songId: String(song.id),
        bitrate: 320000,
      })
      expect(file).toBeDefined()
      const detail = await invoke<Song>('player:resolve', { id: song.id, br: file!.entry.bitrate })
      const bytes = await readFile(file!.path)
      expect(bytes.length).toBe(detail.meta?.size)
      expect(createHash('md5').update(bytes).digest('hex')).toBe(file!.entry.md5)
      expect(file!.entry.md5).toMatch(/^[0-9a-f]{32}$/)
      fromServer.set(String(song.id), await core.api().songDetail(song.id, undefined, 320000))
    }
    const available = await invoke<{ downloaded: string[] }>('media:available')
    expect(available.downloaded.sort()).toEqual(playlist.map((s) => String(s.id)).sort())
    const info = await invoke<{ downloadedCount: number; downloadedBytes: number; cachedCount: number }>(
      'media:cache-info',
    )
    expect(info).toMatchObject({ downloadedCount: 5, cachedCount: 1 }) // and the song played before
  })

  it('with the server stopped: says so once, plays the playlist from disk, skips the rest with the reason', async () => {
    await server.close()
    expect(offlineEvents).toEqual([])
    // The first call that cannot reach the server turns offline mode on.
    const failed = (await core.router.invoke(
      'catalog:recommend-playlists',
      { limit: 3 },
      TRUSTED,
    )) as IpcResult
    expect(failed.ok).toBe(false)
    await core.router.invoke('catalog:recommend-songs', { limit: 3 }, TRUSTED)
    expect(offlineEvents).toHaveLength(1)
    expect(offlineEvents[0]).toMatchObject({ offline: true })

    let withLyrics = 0
    for (const song of playlist) {
      const file = await core.offline.playable({
        sourceId: 'builtin',
        songId: String(song.id),
        bitrate: 320000,
      })
      expect(file?.entry.pinned).toBe(true)
      // Its details, lyrics and cover were kept beside it, and player:resolve answers with them.
      const kept = await core.offline.extras.read({ sourceId: 'builtin', songId: String(song.id) })
      const server = fromServer.get(String(song.id))!
      expect(kept?.song.name).toBe(song.name)
      if (server.meta?.lyric?.normal) withLyrics++
      expect(kept?.lyric).toEqual(server.meta?.lyric)
      const resolved = await invoke<Song>('player:resolve', { id: song.id, br: 320000 })
      expect(resolved.meta?.lyric).toEqual(server.meta?.lyric)
      expect(resolved.album?.cover).toBe(server.album?.cover)
      const cover = await core.offline.cover(server.album!.cover!)
      expect(cover?.type).toBe('image/svg+xml')
      expect((await readFile(cover!.path, 'utf8')).startsWith('<svg')).toBe(true)
    }
    expect(withLyrics).toBeGreaterThan(0) // not only instrumentals
    // The playlist's header cover was kept too, so its page shows it.
    expect((await core.offline.cover(listCover))?.type).toBe('image/svg+xml')
    // The playlist plays whole, from disk, through the media scheme the renderer uses.
    for (const song of playlist) {
      const answer = await play(song)
      expect(answer.status).toBe(200)
      const file = await core.offline.playable(keyOf(song))
      expect(answer.bytes.equals(await readFile(file!.path))).toBe(true)
    }
    // So does the song played (not downloaded) before the server stopped.
    expect((await play(played)).bytes.equals(playedBytes)).toBe(true)
    // A song not on this computer is unplayable with the reason, so the queue skips it and says why.
    const skipped = await invoke<Song>('player:resolve', { id: other.id, br: 320000 })
    expect(skipped.privilege).toMatchObject({ playable: false, reason: NOT_OFFLINE })
    expect(offlineEvents).toHaveLength(1)
  })

  it('comes back when the server does, without a restart', async () => {
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port, demo: 40 })
    core.api().clearCache()
    await expect
      .poll(async () => (await core.router.invoke('catalog:recommend-songs', { limit: 3 }, TRUSTED)).ok, {
        timeout: 20_000,
      })
      .toBe(true)
    expect(offlineEvents.map((e) => e.offline)).toEqual([true, false])
    const detail = await invoke<Song>('player:resolve', { id: other.id, br: 320000 })
    expect(detail.privilege?.playable).not.toBe(false)
    expect(detail.meta?.url).toMatch(/^cadence-media:/)
    expect((await play(other)).status).toBe(200)
  })
})
