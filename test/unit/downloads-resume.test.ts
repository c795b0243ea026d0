import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { CollectionSong } from '@shared/ipc/contract'
import { createDownloads } from '@main/core/downloads/queue'
import { createMemoryStore } from '@main/core/ports'
import { silentLogger } from '@main/core/log'
import { createMediaCache } from '@main/core/media-cache'
import { manualTimers } from '../support/manual-timers'
import { rangeServer, resumedAt } from '../support/range-server'
import type { RangeServer } from '../support/range-server'

/**
 * The download queue against a real HTTP media server that cuts connections: a try, a pause, a retry
 * after a failure and a restart all carry on from the bytes already on disk.
 */

const SIZE = 300_000
const song = (id: number): CollectionSong => ({ id, name: `Song ${id}`, tns: [], artists: [] })
const until = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 5 })
const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex')

let dir: string
let server: RangeServer
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cadence-downloads-resume-'))
  server = await rangeServer()
})
afterEach(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

function setup(store = createMemoryStore()) {
  const timers = manualTimers()
  const cache = createMediaCache({ dir, maxBytes: () => 1e9, timers })
  const origins = new Map<string, ReturnType<RangeServer['put']>>()
  const downloads = createDownloads({
    store,
    cache,
    resolve: async (key) => {
      const origin = origins.get(key.songId) ?? server.put(`/${key.songId}`, SIZE, Number(key.songId))
      origins.set(key.songId, origin)
      return { playable: true, origin: { url: origin.url, size: origin.size, md5: origin.md5 } }
    },
    bitrateFor: () => 320000,
    activeSourceId: () => 'builtin',
    isOffline: () => false,
    onChange: () => undefined,
    timers,
    log: silentLogger('downloads'),
  })
  return { timers, cache, downloads, store, origins }
}

describe('download queue: carrying on from the bytes on disk', () => {
  it('retries a song whose server failed halfway from where it stopped', async () => {
    const t = setup()
    await t.downloads.started
    // The connection is cut halfway, and asking for the rest fails too: the try fails.
    server.plan.push('drop', 503)
    t.downloads.add([song(1)])
    await until(() => expect(t.downloads.summary().waiting).toBe(1))
    t.timers.fire(2000)
    await until(() => expect(t.downloads.summary().done).toBe(1))
    const asked = server.requestsFor('/1')
    expect(asked.map((s) => s.status)).toEqual([200, 503, 206])
    // Both tries after the cut asked for the rest from the bytes on disk.
    const from = resumedAt(asked[1]!.range)
    expect(from).toBeGreaterThan(0)
    expect(asked[2]!.range).toBe(asked[1]!.range)
    expect(asked[2]!.sent).toBe(SIZE - from)
    const file = await t.cache.lookup({ sourceId: 'builtin', songId: '1', bitrate: 320000 })
    expect(md5(await readFile(file!.path))).toBe(t.origins.get('1')!.md5)
  })

  it('resumes a paused download, and one cut short by a restart, without fetching its first half again', async () => {
    const t = setup()
    await t.downloads.started
    server.plan.push('hold')
    const release = server.hold()
    t.downloads.add([song(1)])
    await until(() => expect(t.downloads.list({ offset: 0, limit: 1 }).rows[0]?.received).toBe(SIZE / 2))
    t.downloads.pause()
    await until(() => expect(t.downloads.summary()).toMatchObject({ downloading: 0, queued: 1 }))
    release()
    expect(readdirSync(dir).filter((n) => n.endsWith('.partial'))).toHaveLength(1)
    t.downloads.dispose()
    await t.cache.close()

    // The app starts again: the queue is paused, the partial file is still there.
    const again = setup(t.store)
    await again.downloads.started
    expect(readdirSync(dir).filter((n) => n.endsWith('.partial'))).toHaveLength(1)
    again.downloads.resume()
    await until(() => expect(again.downloads.summary().done).toBe(1))
    const asked = server.requestsFor('/1')
    expect(asked.map((s) => s.range)).toEqual([undefined, `bytes=${SIZE / 2}-`])
    expect(asked[1]).toMatchObject({ status: 206, sent: SIZE / 2 })
    const file = await again.cache.lookup({ sourceId: 'builtin', songId: '1', bitrate: 320000 })
    expect(file?.entry.pinned).toBe(true)
    expect(readdirSync(dir).filter((n) => n.includes('.partial'))).toEqual([])
  })

  it('drops the partial file of a download removed while it ran', async () => {
    const t = setup()
    await t.downloads.started
    server.plan.push('hold')
    const release = server.hold()
    t.downloads.add([song(1)])
    await until(() => expect(t.downloads.list({ offset: 0, limit: 1 }).rows[0]?.received).toBe(SIZE / 2))
    await t.downloads.remove([1])
    release()
    await until(() => expect(readdirSync(dir).filter((n) => n.includes('.partial'))).toEqual([]))
    expect(t.downloads.summary().total).toBe(0)
  })
})
