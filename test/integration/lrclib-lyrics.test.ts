import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCore, createMemoryStore } from '@main/core'
import type { InvokeChannel, IpcResult } from '@shared/ipc/contract'
import type { LrclibAnswer, LrclibLyrics, LrclibSong } from '@shared/ipc/discord-lrclib'
import { createTestCipher } from '../support/test-cipher'
import { lrclibRecord, startFakeLrclib } from '../support/fake-lrclib'
import type { LrclibRecord } from '../support/fake-lrclib'

/**
 * Lyrics from LRCLIB through the real core against a fake LRCLIB on loopback: the exact queries (their
 * parameters and User-Agent), the fallback to search, synced lyrics preferred, instrumental records,
 * garbage and huge answers refused, the copy kept with the song served offline, picking another and hiding.
 */

const APP = 'app://cadence/index.html'
const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step()
})

const SONG: LrclibSong = {
  sourceId: 'builtin',
  songId: 7,
  track: 'Blue Hour',
  artist: 'Mira Vale',
  album: 'Evening Songs',
  durationMs: 200_400,
}

async function setup(records: LrclibRecord[], options: { on?: boolean; dir?: string } = {}) {
  const server = await startFakeLrclib(records)
  cleanups.push(server.close)
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'cadence-lrclib-')))
  if (!options.dir) cleanups.push(() => rm(dir, { recursive: true, force: true }))
  const build = (baseUrl = server.url) => {
    const core = createCore({
      store: createMemoryStore(),
      cipher: createTestCipher(),
      isTrustedSender: (url) => url.startsWith('app://cadence/'),
      appInfo: { name: 'Cadence', version: '1.2.3', platform: 'linux' },
      lrclib: { baseUrl, dir, maxBytes: 256 * 1024, timeoutMs: 1500 },
    })
    cleanups.push(() => core.dispose())
    const value = async <T>(channel: InvokeChannel, args?: unknown): Promise<T> => {
      const result = (await core.router.invoke(channel, args, { senderUrl: APP })) as IpcResult
      if (!result.ok) throw new Error(`${channel}: ${result.error.kind} ${result.error.message}`)
      return result.value as T
    }
    return { core, value }
  }
  const app = build()
  if (options.on !== false) await app.value('settings:update', { lrclib: 'on' })
  return { server, dir, build, ...app }
}

const found = (answer: LrclibAnswer) => {
  if (answer.status !== 'found') throw new Error(`expected lyrics, got ${answer.status}`)
  return answer
}

describe('lyrics from LRCLIB against a fake LRCLIB', () => {
  it('asks nothing until the setting is on', async () => {
    const { server, value } = await setup([lrclibRecord({ id: 1 })], { on: false })
    expect(await value<LrclibAnswer>('lrclib:lookup', SONG)).toEqual({ status: 'off' })
    expect(await value<LrclibLyrics[]>('lrclib:results', SONG)).toEqual([])
    expect(server.requests).toHaveLength(0)
    await value('settings:update', { lrclib: 'on' })
    expect((await value<LrclibAnswer>('lrclib:lookup', SONG)).status).toBe('found')
    expect(server.requests).toHaveLength(1)
  })

  it('sends /api/get with track, artist, album and whole seconds, and a User-Agent naming Cadence and its version', async () => {
    const { server, value } = await setup([lrclibRecord({ id: 1 })])
    const answer = found(await value<LrclibAnswer>('lrclib:lookup', SONG))
    expect(answer.lyrics.id).toBe(1)
    expect(answer.lyrics.syncedLyrics).toContain('[00:01.00] First line')
    expect(answer.hidden).toBe(false)
    expect(server.requests).toHaveLength(1)
    const request = server.requests[0]!
    expect(request.path).toBe('/api/get')
    expect(request.query).toEqual({
      track_name: 'Blue Hour',
      artist_name: 'Mira Vale',
      album_name: 'Evening Songs',
      duration: '200',
    })
    expect(request.headers['user-agent']).toBe('Cadence/1.2.3 (desktop music player)')
  })

  it('falls back to /api/search by track and artist when /api/get finds nothing', async () => {
    const { server, value } = await setup([
      lrclibRecord({ id: 2, albumName: 'Another Album', duration: 201 }),
    ])
    expect(found(await value<LrclibAnswer>('lrclib:lookup', SONG)).lyrics.id).toBe(2)
    expect(server.requests.map((r) => r.path)).toEqual(['/api/get', '/api/search'])
    expect(server.requests[1]!.query).toEqual({ track_name: 'Blue Hour', artist_name: 'Mira Vale' })
    expect(server.requests[1]!.headers['user-agent']).toBe('Cadence/1.2.3 (desktop music player)')
  })

  it('prefers synced lyrics over plain text', async () => {
    const plain = lrclibRecord({ id: 3, syncedLyrics: null })
    const synced = lrclibRecord({ id: 4, albumName: 'Live', duration: 199 })
    const { server, value } = await setup([plain, synced])
    const answer = found(await value<LrclibAnswer>('lrclib:lookup', SONG))
    expect(answer.lyrics.id).toBe(4)
    expect(answer.lyrics.syncedLyrics).not.toBe('')
    expect(server.requests.map((r) => r.path)).toEqual(['/api/get', '/api/search'])
  })

  it('takes an instrumental record as the answer (no lyrics to show)', async () => {
    const { value } = await setup([
      lrclibRecord({ id: 5, instrumental: true, plainLyrics: null, syncedLyrics: null }),
    ])
    const answer = found(await value<LrclibAnswer>('lrclib:lookup', SONG))
    expect(answer.lyrics).toMatchObject({ id: 5, instrumental: true, syncedLyrics: '', plainLyrics: '' })
  })

  it('answers "none" when LRCLIB has nothing, and keeps that answer', async () => {
    const { server, value } = await setup([lrclibRecord({ id: 6, trackName: 'Something Else' })])
    expect(await value<LrclibAnswer>('lrclib:lookup', SONG)).toEqual({ status: 'none' })
    expect(await value<LrclibAnswer>('lrclib:lookup', SONG)).toEqual({ status: 'none' })
    expect(server.requests.map((r) => r.path)).toEqual(['/api/get', '/api/search'])
  })

  it.each(['garbage', 'wrong-shape', 'huge', 'huge-chunked', 'error', 'hang'] as const)(
    'refuses a %s answer (nothing kept, asked again next time)',
    async (mode) => {
      const { server, value } = await setup([lrclibRecord({ id: 1 })])
      server.setMode(mode)
      expect(await value<LrclibAnswer>('lrclib:lookup', SONG)).toEqual({ status: 'unavailable' })
      server.setMode('normal')
      expect(found(await value<LrclibAnswer>('lrclib:lookup', SONG)).lyrics.id).toBe(1)
    },
  )

  it('serves the kept copy offline, after a restart', async () => {
    const { server, dir, value, build } = await setup([lrclibRecord({ id: 1 })])
    expect(found(await value<LrclibAnswer>('lrclib:lookup', SONG)).lyrics.id).toBe(1)
    await server.close()
    // A new run, LRCLIB out of reach: the lyrics kept with the song show.
    const again = build('http://127.0.0.1:9')
    await again.value('settings:update', { lrclib: 'on' })
    const answer = found(await again.value<LrclibAnswer>('lrclib:lookup', SONG))
    expect(answer.lyrics).toMatchObject({
      id: 1,
      syncedLyrics: '[00:01.00] First line\n[00:05.50] Second line',
    })
    // Another song, never looked up, is simply unavailable.
    expect(await again.value<LrclibAnswer>('lrclib:lookup', { ...SONG, songId: 8 })).toEqual({
      status: 'unavailable',
    })
    expect(dir).toBeTruthy()
  })

  it('asks LRCLIB nothing during a private session; the kept lyrics still show', async () => {
    const { server, value } = await setup([lrclibRecord({ id: 1 })])
    expect(found(await value<LrclibAnswer>('lrclib:lookup', SONG)).lyrics.id).toBe(1)
    expect(server.requests).toHaveLength(1)
    await value('history:set-private', { on: true })
    expect(found(await value<LrclibAnswer>('lrclib:lookup', SONG)).lyrics.id).toBe(1)
    expect(await value<LrclibAnswer>('lrclib:lookup', { ...SONG, songId: 8 })).toEqual({
      status: 'unavailable',
    })
    expect(await value<LrclibLyrics[]>('lrclib:results', SONG)).toEqual([])
    expect(server.requests).toHaveLength(1)
    await value('history:set-private', { on: false })
    expect(found(await value<LrclibAnswer>('lrclib:lookup', { ...SONG, songId: 8 })).lyrics.id).toBe(1)
    expect(server.requests).toHaveLength(2)
  })

  it('lists the search results to pick another, keeps the pick, and hides them for this song', async () => {
    const records = [
      lrclibRecord({ id: 1 }),
      lrclibRecord({ id: 9, albumName: 'Live', syncedLyrics: '[00:02.00] Live line' }),
    ]
    const { value } = await setup(records)
    expect(found(await value<LrclibAnswer>('lrclib:lookup', SONG)).lyrics.id).toBe(1)
    const results = await value<LrclibLyrics[]>('lrclib:results', SONG)
    expect(results.map((r) => r.id)).toEqual([1, 9])
    expect(found(await value<LrclibAnswer>('lrclib:choose', { ...SONG, id: 9 })).lyrics.syncedLyrics).toBe(
      '[00:02.00] Live line',
    )
    expect(found(await value<LrclibAnswer>('lrclib:lookup', SONG)).lyrics.id).toBe(9)
    expect(
      found(await value<LrclibAnswer>('lrclib:hide', { sourceId: 'builtin', songId: 7, hidden: true }))
        .hidden,
    ).toBe(true)
    expect(found(await value<LrclibAnswer>('lrclib:lookup', SONG)).hidden).toBe(true)
    // Another song's lyrics are not touched.
    expect(found(await value<LrclibAnswer>('lrclib:lookup', { ...SONG, songId: 8 })).hidden).toBe(false)
  })
})
