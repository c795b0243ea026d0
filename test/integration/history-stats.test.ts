import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEventHub } from '@main/core/events'
import { createHistoryHandlers, createHistoryService, openHistoryStore } from '@main/core/history'
import { silentLogger } from '@main/core/log'
import { createIpcRouter } from '@main/core/ipc/router'
import type { Handlers } from '@main/core/ipc/router'
import type { Listen } from '@shared/ipc/history'
import { manualTimers } from '../support/manual-timers'

/**
 * "Your listening, in pictures" (core/history/stats.ts) on a real SQLite file: time listened, top songs,
 * artists and albums per span, listens per local day, a file from layout 1 migrated, and `history:stats`
 * checked at the door.
 */

const DAY = 86_400_000
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0)

const listen = (at: number, song: string, over: Partial<Listen> = {}): Listen => ({
  listenedAt: at,
  sourceId: 'builtin',
  songId: song,
  title: `Song ${song}`,
  artists: ['Mira Vale'],
  album: 'Blue Hour',
  albumId: '7',
  durationMs: 200_000,
  ...over,
})

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadence-history-stats-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

function service(path = join(dir, 'history.sqlite')) {
  const store = openHistoryStore(path)
  return createHistoryService({
    store,
    events: createEventHub(),
    timers: manualTimers(),
    log: silentLogger('history'),
  })
}

describe('history stats', () => {
  it('counts time listened and the top songs, artists and albums of each span', () => {
    const history = service()
    // Today: song 1 three times (Mira Vale with Ode), song 2 once.
    for (let i = 0; i < 3; i++)
      history.record(listen(NOW - 3_600_000 * (i + 1), '1', { artists: ['Mira Vale', 'Ode'] }))
    history.record(listen(NOW - 600_000, '2', { album: 'Low Tide', albumId: '9', durationMs: 100_000 }))
    // Twenty days ago: song 3 by Ode, five times.
    for (let i = 0; i < 5; i++)
      history.record(
        listen(NOW - 20 * DAY - i * 60_000, '3', { artists: ['Ode'], album: 'Far', albumId: '3' }),
      )
    // Two years ago: song 4, once, no album.
    history.record(
      listen(NOW - 730 * DAY, '4', { artists: ['Kestrel'], album: undefined, albumId: undefined }),
    )

    const week = history.stats('week', 0, NOW)
    expect(week.listens).toBe(4)
    expect(week.listenedMs).toBe(3 * 200_000 + 100_000)
    expect(week.topSongs.map((s) => [s.songId, s.listens])).toEqual([
      ['1', 3],
      ['2', 1],
    ])
    expect(week.topSongs[0]).toMatchObject({
      title: 'Song 1',
      artists: ['Mira Vale', 'Ode'],
      album: 'Blue Hour',
    })
    expect(week.topArtists).toEqual([
      { name: 'Mira Vale', listens: 4, ms: 700_000 },
      { name: 'Ode', listens: 3, ms: 600_000 },
    ])
    expect(week.topAlbums.map((a) => [a.album, a.listens])).toEqual([
      ['Blue Hour', 3],
      ['Low Tide', 1],
    ])

    const month = history.stats('month', 0, NOW)
    expect(month.listens).toBe(9)
    expect(month.topSongs[0]).toMatchObject({ songId: '3', listens: 5 })
    expect(month.topArtists[0]).toEqual({ name: 'Ode', listens: 8, ms: 1_600_000 })
    expect(month.topAlbums[0]).toMatchObject({ album: 'Far', albumId: '3', artists: ['Ode'], listens: 5 })

    expect(history.stats('year', 0, NOW).listens).toBe(9)
    const all = history.stats('all', 0, NOW)
    expect(all.listens).toBe(10)
    expect(all.since).toBe(0)
    expect(all.topArtists.map((a) => a.name)).toContain('Kestrel')
    // An album-less listen is in no album's count.
    expect(all.topAlbums.reduce((n, a) => n + a.listens, 0)).toBe(9)
    history.dispose()
  })

  it('counts listens per local day, by the offset the renderer gives', () => {
    const history = service()
    const midnight = Date.UTC(2026, 10, 27)
    // 23:30 UTC on the 26th and 00:30 UTC on the 27th: two UTC days, one day at UTC+2.
    history.record(listen(midnight - 1_800_000, '1'))
    history.record(listen(midnight + 1_800_000, '2'))
    const utc = history.stats('week', 0, NOW)
    expect(utc.days).toEqual([
      { day: midnight / DAY - 1, listens: 1, ms: 200_000 },
      { day: midnight / DAY, listens: 1, ms: 200_000 },
    ])
    const plus2 = history.stats('week', 120, NOW)
    expect(plus2.days).toEqual([{ day: midnight / DAY, listens: 2, ms: 400_000 }])
    history.dispose()
  })

  it('migrates a history file from layout 1: its listens keep their artists, counted by name', () => {
    const path = join(dir, 'layout1.sqlite')
    const old = new DatabaseSync(path)
    // Layout 1 as the previous version wrote it.
    old.exec(`CREATE TABLE listens (
      id INTEGER PRIMARY KEY, listened_at INTEGER NOT NULL, source_id TEXT NOT NULL, song_id TEXT NOT NULL,
      title TEXT NOT NULL, artists TEXT NOT NULL, album TEXT, album_id TEXT, duration_ms INTEGER NOT NULL,
      cover TEXT)`)
    old.exec('CREATE INDEX listens_by_time ON listens (listened_at DESC, id DESC)')
    old.exec('CREATE UNIQUE INDEX listens_once ON listens (listened_at, source_id, song_id)')
    const insert = old.prepare(
      `INSERT INTO listens (listened_at, source_id, song_id, title, artists, album, album_id, duration_ms)
       VALUES (?, 'builtin', ?, ?, ?, 'Blue Hour', '7', 200000)`,
    )
    insert.run(NOW - 1000, '1', 'Old One', JSON.stringify(['Mira Vale', 'Ode']))
    insert.run(NOW - 2000, '1', 'Old One', JSON.stringify(['Mira Vale', 'Ode']))
    insert.run(NOW - 3000, '2', 'Old Two', JSON.stringify(['Ode']))
    old.exec('PRAGMA user_version = 1')
    old.close()

    const history = service(path)
    expect(history.page(10).rows.map((r) => r.title)).toEqual(['Old One', 'Old One', 'Old Two'])
    const stats = history.stats('all', 0, NOW)
    expect(stats.topArtists).toEqual([
      { name: 'Ode', listens: 3, ms: 600_000 },
      { name: 'Mira Vale', listens: 2, ms: 400_000 },
    ])
    expect(stats.topSongs[0]).toMatchObject({ songId: '1', title: 'Old One', listens: 2 })
    // New listens after the migration are counted the same way.
    history.record(listen(NOW, '3', { artists: ['Mira Vale'] }))
    expect(history.stats('all', 0, NOW).topArtists[0]).toEqual({ name: 'Mira Vale', listens: 3, ms: 600_000 })
    history.dispose()

    const check = new DatabaseSync(path)
    expect((check.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(2)
    check.close()
  })

  it('clears the artists with the listens', () => {
    const history = service()
    history.record(listen(NOW, '1'))
    history.clear()
    const stats = history.stats('all', 0, NOW)
    expect(stats).toMatchObject({ listens: 0, listenedMs: 0, topSongs: [], topArtists: [], topAlbums: [] })
    history.dispose()
  })

  it('answers history:stats through the IPC door, refusing a span or offset it does not know', async () => {
    const history = service()
    history.record(listen(Date.now() - 1000, '1'))
    const router = createIpcRouter(createHistoryHandlers(history) as Handlers, {
      isTrustedSender: () => true,
      log: silentLogger('ipc'),
    })
    const from = { senderUrl: 'app://cadence/' }
    const answer = await router.invoke('history:stats', { range: 'week', utcOffsetMinutes: 60 }, from)
    expect(answer).toMatchObject({ ok: true, value: { range: 'week', listens: 1 } })
    for (const bad of [
      { range: 'decade', utcOffsetMinutes: 0 },
      { range: 'week', utcOffsetMinutes: 10_000 },
      { range: 'week' },
      { range: 'week', utcOffsetMinutes: 0, extra: 1 },
    ]) {
      expect(await router.invoke('history:stats', bad, from)).toMatchObject({
        ok: false,
        error: { kind: 'invalid-argument' },
      })
    }
    history.dispose()
  })
})
