import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCore, createMemoryStore } from '@main/core'
import { MAX_DOWNLOADS } from '@main/core/downloads/queue'
import { createMediaCache, DEFAULT_MEDIA_LIMITS } from '@main/core/media-cache'
import type { CollectionSong, DownloadsSummary, IpcResult } from '@shared/ipc/contract'
import { createTestCipher } from '../support/test-cipher'

/**
 * Issue 33, item 7: the download queue is bounded. A renderer (or a page that took it over) could call
 * `downloads:add` again and again, each call up to 20,000 songs, and the queue (kept whole in the store,
 * walked for every summary) grew without end.
 */

const TRUSTED = { senderUrl: 'app://cadence/index.html' }

const songs = (from: number, count: number): CollectionSong[] =>
  Array.from({ length: count }, (_, i) => ({
    id: from + i,
    name: `Song ${from + i}`,
    tns: [],
    artists: [{ id: 1, name: 'Artist' }],
  }))

describe('the download queue against a renderer that enqueues without end', () => {
  const cores: Array<ReturnType<typeof createCore>> = []
  afterEach(() => {
    for (const core of cores.splice(0)) core.dispose()
  })

  it('holds at most 10,000 songs and refuses an add past it whole, with a typed error', async () => {
    const core = createCore({
      store: createMemoryStore(),
      cipher: createTestCipher(),
      isTrustedSender: (url) => url.startsWith('app://cadence/'),
      appInfo: { name: 'Cadence', version: '0.0.0-test', platform: 'linux' },
      autoSignInBuiltin: false,
    })
    cores.push(core)
    const invoke = (channel: string, args?: unknown) =>
      core.router.invoke(channel as never, args as never, TRUSTED) as Promise<IpcResult<DownloadsSummary>>
    // Nothing is fetched: only the queue is under test.
    await invoke('downloads:pause')
    expect(MAX_DOWNLOADS).toBe(10_000)

    // In calls of 2,000, as a page could send them one after another.
    for (let from = 1; from <= 9_000; from += 2_000) {
      const added = await invoke('downloads:add', { songs: songs(from, Math.min(2_000, 9_991 - from)) })
      expect(added.ok).toBe(true)
    }
    const total = async () => {
      const summary = await invoke('downloads:summary')
      if (!summary.ok) throw new Error(summary.error.message)
      return summary.value.total
    }
    expect(await total()).toBe(9_990)

    // 5 already there and 15 new: 10,005 would not fit, so none of them is added.
    const past = await invoke('downloads:add', { songs: songs(9_986, 20) })
    expect(past).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(!past.ok && past.error.message).toMatch(/at most 10,000 songs: 9,990 are there and 15 more/)
    expect(await total()).toBe(9_990)

    // Up to the cap it takes them; songs already there may be sent again.
    expect((await invoke('downloads:add', { songs: songs(9_991, 10) })).ok).toBe(true)
    expect(await total()).toBe(10_000)
    expect((await invoke('downloads:add', { songs: songs(1, 500) })).ok).toBe(true)
    expect(await total()).toBe(10_000)
    const one = await invoke('downloads:add', { songs: songs(10_001, 1) })
    expect(one).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await total()).toBe(10_000)
  })
})

describe('the media cache against an answer that announces more than any song', () => {
  const MIB = 1024 * 1024
  let dir: string
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('refuses a download without meta.size whose Content-Length passes the cap, before reading its body', async () => {
    dir = mkdtempSync(join(tmpdir(), 'cadence-hostile-cache-'))
    const announced = DEFAULT_MEDIA_LIMITS.unsizedMaxBytes + MIB
    let pulled = 0
    // The body would go on for 64 MiB (then end short of what it announced).
    const fetch = (async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (pulled >= 64 * MIB) return controller.close()
            pulled += 64 * 1024
            controller.enqueue(new Uint8Array(64 * 1024))
          },
        }),
        { headers: { 'content-type': 'audio/flac', 'content-length': String(announced) } },
      )) as typeof globalThis.fetch
    const cache = createMediaCache({
      dir: join(dir, 'media-cache'),
      maxBytes: () => 2048 * MIB,
      fetch,
      timers: { setTimeout: () => 0, clearTimeout: () => undefined },
    })
    const key = { sourceId: 'hostile', songId: '1', bitrate: 999000 }
    await expect(
      cache.fill(key, async () => ({ url: 'http://127.0.0.1:9/song' }), { pin: true }),
    ).rejects.toMatchObject({
      reason: 'too-large',
      message: expect.stringMatching(/did not say how large the file is, and it is more than 512 MiB/),
    })
    // At most what the stream queued by itself before anyone read it.
    expect(pulled).toBeLessThanOrEqual(128 * 1024)
    expect(readdirSync(join(dir, 'media-cache')).filter((name) => name.includes('.partial'))).toEqual([])
  })
})
