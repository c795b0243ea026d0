import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DataSourceError } from '@shared/errors'
import type { CollectionSong } from '@shared/ipc/contract'
import { createDownloads, MAX_ATTEMPTS } from '@main/core/downloads/queue'
import type { ResolvedDownload } from '@main/core/downloads/queue'
import { createMemoryStore } from '@main/core/ports'
import { silentLogger } from '@main/core/log'
import { createMediaCache } from '@main/core/media-cache'
import type { CacheFs, CacheKey } from '@main/core/media-cache'
import { fillingDisk } from '../support/full-disk'
import { mediaServer } from '../support/media-server'
import { manualTimers } from '../support/manual-timers'

const song = (id: number, extra: Partial<CollectionSong> = {}): CollectionSong => ({
  id,
  name: `Song ${id}`,
  tns: [],
  artists: [{ id: 1, name: 'Artist' }],
  ...extra,
})

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cadence-downloads-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function setup(
  options: { fs?: CacheFs; store?: ReturnType<typeof createMemoryStore>; offline?: () => boolean } = {},
) {
  const server = mediaServer()
  const timers = manualTimers()
  const store = options.store ?? createMemoryStore()
  const cache = createMediaCache({ dir, fs: options.fs, maxBytes: () => 1e9, fetch: server.fetch, timers })
  const resolved: CacheKey[] = []
  const resolveErrors: unknown[] = []
  let offline = false
  const active = { id: 'builtin' }
  const downloads = createDownloads({
    store,
    cache,
    resolve: async (key): Promise<ResolvedDownload> => {
      resolved.push(key)
      const error = resolveErrors.shift()
      if (error) throw typeof error === 'function' ? (error as () => unknown)() : error
      if (key.songId === '404') return { playable: false, reason: 'No rights for this song' }
      return { playable: true, origin: server.put(`http://src/${key.songId}`, 1000 + Number(key.songId)) }
    },
    bitrateFor: () => 320000,
    activeSourceId: () => active.id,
    isOffline: options.offline ?? (() => offline),
    onChange: () => undefined,
    timers,
    log: silentLogger('downloads'),
    concurrency: 3,
  })
  return {
    server,
    timers,
    store,
    cache,
    downloads,
    resolved,
    resolveErrors,
    setOffline: (v: boolean) => (offline = v),
    active,
  }
}

const until = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 5 })

describe('download queue', () => {
  it('fetches at most three songs at once and keeps every file as a download', async () => {
    const t = setup()
    await t.downloads.started
    const release = t.server.hold()
    t.downloads.add(Array.from({ length: 10 }, (_, i) => song(i + 1)))
    await until(() => expect(t.server.requests).toHaveLength(3))
    expect(t.downloads.summary()).toMatchObject({ downloading: 3, queued: 7 })
    release()
    await until(() => expect(t.downloads.summary().done).toBe(10))
    expect(t.server.requests).toHaveLength(10)
    expect(t.cache.usage()).toMatchObject({ downloadedCount: 10, cachedCount: 0 })
    const page = t.downloads.list({ offset: 8, limit: 5, done: true })
    expect(page.total).toBe(10)
    expect(page.rows.map((r) => r.song.id)).toEqual([9, 10])
    expect(page.rows[0]).toMatchObject({ state: 'done', size: 1009 })
    // Adding the same songs again adds nothing.
    expect(t.downloads.add([song(1)]).total).toBe(10)
  })

  it('survives a restart: a queue cut short carries on where it was', async () => {
    const t = setup()
    await t.downloads.started
    t.downloads.pause()
    t.downloads.add([song(1), song(2), song(3), song(4)])
    expect(t.server.requests).toHaveLength(0)
    t.downloads.dispose()

    const again = setup({ store: t.store })
    await again.downloads.started
    expect(again.downloads.summary()).toMatchObject({ paused: true, queued: 4 })
    again.downloads.resume()
    await until(() => expect(again.downloads.summary().done).toBe(4))
    again.downloads.dispose()

    // A done download whose file was lost (cache folder deleted) is fetched again.
    rmSync(
      join(
        dir,
        readdirSync(dir).find((n) => n.endsWith('.audio'))!,
      ),
    )
    const third = setup({ store: t.store })
    await third.downloads.started
    await until(() => expect(third.downloads.summary().done).toBe(4))
    expect(third.server.requests).toHaveLength(1)
  })

  it('keeps a queue of 10,000 songs across a restart, fetching 3 at a time', async () => {
    const t = setup()
    await t.downloads.started
    t.downloads.pause()
    t.downloads.add(Array.from({ length: 10_000 }, (_, i) => song(i + 1)))
    t.downloads.dispose()
    const again = setup({ store: t.store })
    await again.downloads.started
    expect(again.downloads.summary()).toMatchObject({ total: 10_000, queued: 10_000, paused: true })
    expect(again.downloads.list({ offset: 9_998, limit: 5 }).rows.map((r) => r.song.id)).toEqual([
      9_999, 10_000,
    ])
    const release = again.server.hold()
    again.downloads.resume()
    await until(() => expect(again.server.requests).toHaveLength(3))
    expect(again.downloads.summary()).toMatchObject({ downloading: 3, queued: 9_997 })
    again.downloads.pause()
    release()
    await until(() => expect(again.downloads.summary().downloading).toBe(0))
  })

  it('pauses (stopping what runs, nothing complete yet) and resumes', async () => {
    const t = setup()
    await t.downloads.started
    const release = t.server.hold()
    t.downloads.add([song(1), song(2)])
    await until(() => expect(t.server.requests).toHaveLength(2))
    t.downloads.pause()
    release()
    await until(() =>
      expect(t.downloads.summary()).toMatchObject({ downloading: 0, queued: 2, paused: true }),
    )
    // What came is kept for the resume (downloads-resume.test.ts), never under a cache name.
    expect(readdirSync(dir).filter((n) => n.endsWith('.audio'))).toEqual([])
    t.downloads.resume()
    await until(() => expect(t.downloads.summary().done).toBe(2))
  })

  it('tries again after 2 s, 4 s … and gives up after MAX_ATTEMPTS', async () => {
    const t = setup()
    await t.downloads.started
    t.server.failures.push(503, 503)
    t.downloads.add([song(1)])
    await until(() => expect(t.downloads.summary().waiting).toBe(1))
    expect(t.timers.delays()).toContain(2000)
    t.timers.fire(2000)
    await until(() => expect(t.timers.delays()).toContain(4000))
    t.timers.fire(4000)
    await until(() => expect(t.downloads.summary().done).toBe(1))

    t.server.failures.push(...Array<number>(MAX_ATTEMPTS).fill(500))
    t.downloads.add([song(2)])
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const delay = 2000 * 2 ** (attempt - 1)
      await until(() => expect(t.timers.delays()).toContain(delay))
      t.timers.fire(delay)
    }
    await until(() => expect(t.downloads.summary().failed).toBe(1))
    expect(t.downloads.list({ offset: 0, limit: 5 }).rows[1]).toMatchObject({
      state: 'failed',
      error: 'The audio answered HTTP 500',
    })
    t.downloads.retry()
    await until(() => expect(t.downloads.summary().done).toBe(2))
  })

  it('fails a song the data source will not play, with its reason', async () => {
    const t = setup()
    await t.downloads.started
    t.downloads.add([song(404), song(5, { privilege: { playable: false, reason: 'Region locked' } })])
    await until(() => expect(t.downloads.summary().failed).toBe(2))
    const rows = t.downloads.list({ offset: 0, limit: 5 }).rows
    expect(rows.map((r) => r.error)).toEqual(['No rights for this song', 'Region locked'])
  })

  it('waits while the data source is unreachable, without spending tries, and carries on when it is back', async () => {
    let reachable = false
    const t = setup({ offline: () => !reachable })
    await t.downloads.started
    t.downloads.add([song(1)])
    expect(t.resolved).toHaveLength(0) // nothing starts offline
    reachable = true
    // The source drops out during the download: the monitor turns offline mode on as the call fails.
    t.resolveErrors.push(() => {
      reachable = false
      return new DataSourceError({ kind: 'network', message: 'fetch failed' })
    })
    t.downloads.online()
    await until(() => expect(t.downloads.summary().waiting).toBe(1))
    expect(t.downloads.list({ offset: 0, limit: 1 }).rows[0]).toMatchObject({
      error: 'Waiting for the data source to come back',
      retryAt: undefined,
    })
    expect(t.timers.delays()).not.toContain(2000)
    reachable = true
    t.downloads.online()
    await until(() => expect(t.downloads.summary().done).toBe(1))
    expect(t.resolved).toHaveLength(2)
  })

  it('pauses the whole queue when the disk is full, leaving no partial file', async () => {
    const disk = fillingDisk(2500)
    const t = setup({ fs: disk.fs })
    await t.downloads.started
    t.downloads.add([song(1), song(2), song(3), song(4)])
    await until(() => expect(t.downloads.summary().paused).toBe(true))
    await until(() => expect(t.downloads.summary().downloading).toBe(0))
    expect(t.downloads.summary().message).toMatch(/disk is full/)
    expect(readdirSync(dir).filter((n) => n.includes('.part'))).toEqual([])
    const done = t.downloads.summary().done
    expect(done).toBeLessThan(4)
    disk.setRoom(1e9)
    t.downloads.resume()
    await until(() => expect(t.downloads.summary().done).toBe(4))
    expect(t.downloads.summary().message).toBeUndefined()
  })

  it('keeps the downloads of another data source waiting until it is active again', async () => {
    const t = setup()
    await t.downloads.started
    t.downloads.pause()
    t.downloads.add([song(1), song(2)])
    t.active.id = 'lan'
    t.downloads.resume()
    await until(() => expect(t.downloads.summary().waiting).toBe(2))
    expect(t.resolved).toHaveLength(0)
    expect(t.downloads.list({ offset: 0, limit: 1 }).rows[0]?.error).toMatch(/active one/)
    t.active.id = 'builtin'
    t.downloads.online() // what the core calls when the source changes
    await until(() => expect(t.downloads.summary().done).toBe(2))
  })

  it('turns a removed download back into an ordinary cached song', async () => {
    const t = setup()
    await t.downloads.started
    t.downloads.add([song(1), song(2)])
    await until(() => expect(t.downloads.summary().done).toBe(2))
    await t.downloads.remove([1])
    expect(t.downloads.summary().total).toBe(1)
    expect(t.cache.usage()).toMatchObject({ downloadedCount: 1, cachedCount: 1 })
    expect(t.downloads.doneIds('builtin')).toEqual(['2'])

    // The data source itself is removed: its downloads go, whichever source is active.
    t.active.id = 'lan'
    await t.downloads.forgetSource('builtin')
    expect(t.downloads.summary().total).toBe(0)
    expect(t.cache.usage()).toMatchObject({ downloadedCount: 0, cachedCount: 2 })
  })

  it('remembers the header covers of the lists it downloaded until their last song is removed', async () => {
    const t = setup()
    await t.downloads.started
    t.downloads.pause()
    t.downloads.add([song(1), song(2)], 'http://src/cover/album.jpg')
    // A playlist sharing song 2 refers to its own cover too; a song added alone to none.
    t.downloads.add([song(2), song(3)], 'http://src/cover/playlist.jpg')
    t.downloads.add([song(4)])
    expect([...t.downloads.covers()].sort()).toEqual([
      'http://src/cover/album.jpg',
      'http://src/cover/playlist.jpg',
    ])
    t.downloads.dispose()

    const again = setup({ store: t.store })
    await again.downloads.started
    expect(again.downloads.covers().size).toBe(2) // kept across a restart
    await again.downloads.remove([1, 2])
    expect([...again.downloads.covers()]).toEqual(['http://src/cover/playlist.jpg'])
    await again.downloads.remove([3])
    expect(again.downloads.covers().size).toBe(0)
  })
})
