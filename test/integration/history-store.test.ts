import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEventHub } from '@main/core/events'
import { createHistoryService, HISTORY_RETRY_MS, openHistoryStore } from '@main/core/history'
import { silentLogger } from '@main/core/log'
import { HISTORY_IMPORT_MAX_CHARS, HISTORY_IMPORT_MAX_LISTENS } from '@shared/ipc/history'
import type { HistoryState, Listen } from '@shared/ipc/history'
import { manualTimers } from '../support/manual-timers'

/**
 * The listening history's SQLite file and service (core/history) on a real file in a temp folder: export
 * and import back, imports refused whole, a process killed mid-write, a disk that fills up.
 */

const STORE_TS = resolve(import.meta.dirname, '../../electron/main/core/history/store.ts')

const listen = (n: number, over: Partial<Listen> = {}): Listen => ({
  listenedAt: 1_700_000_000_000 + n * 60_000,
  sourceId: 'builtin',
  songId: String(n),
  title: `Song ${n}`,
  artists: ['Mira Vale', 'Ode'],
  album: 'Blue Hour',
  albumId: '7',
  durationMs: 180_000,
  cover: `http://127.0.0.1:4000/covers/${n}.png`,
  ...over,
})

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadence-history-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

function service(path = join(dir, 'history.sqlite'), maxPages?: number) {
  const events = createEventHub()
  const seen: HistoryState[] = []
  events.subscribe((event, payload) => {
    if (event === 'history:changed') seen.push(payload as HistoryState)
  })
  const timers = manualTimers()
  const store = openHistoryStore(path, { maxPages })
  const history = createHistoryService({ store, events, timers, log: silentLogger('history') })
  return { history, store, timers, seen }
}

describe('history store', () => {
  it('keeps listens newest first, a page at a time, with what shows offline', () => {
    const { history } = service()
    for (let n = 1; n <= 25; n++) history.record(listen(n))
    const first = history.page(10)
    expect(first.total).toBe(25)
    expect(first.rows.map((r) => r.songId)).toEqual([
      '25',
      '24',
      '23',
      '22',
      '21',
      '20',
      '19',
      '18',
      '17',
      '16',
    ])
    expect(first.rows[0]).toMatchObject({
      title: 'Song 25',
      artists: ['Mira Vale', 'Ode'],
      album: 'Blue Hour',
    })
    const second = history.page(10, first.next)
    expect(second.rows[0].songId).toBe('15')
    const last = history.page(10, second.next)
    expect(last.rows.map((r) => r.songId)).toEqual(['5', '4', '3', '2', '1'])
    expect(last.next).toBeUndefined()
    history.dispose()
  })

  it('never records the free-app placeholder, nor anything in a private session', () => {
    const { history, seen } = service()
    expect(history.record(listen(1, { songId: 'free-app' }))).toBe(false)
    history.setPrivate(true)
    expect(history.record(listen(2))).toBe(false)
    expect(seen.at(-1)).toMatchObject({ private: true, count: 0 })
    history.setPrivate(false)
    expect(history.record(listen(3))).toBe(true)
    expect(history.page(10).rows.map((r) => r.songId)).toEqual(['3'])
    history.dispose()
  })

  it('exports ListenBrainz JSON and imports it back whole', () => {
    const { history } = service()
    for (let n = 1; n <= 30; n++)
      history.record(listen(n, n % 3 ? {} : { album: undefined, albumId: undefined }))
    const before = history.page(100).rows.map(({ id: _id, ...rest }) => rest)
    const file = history.exportFile()
    const body = JSON.parse(file.text)
    expect(body.listen_type).toBe('import')
    expect(body.payload[0]).toMatchObject({
      listened_at: Math.floor(listen(1).listenedAt / 1000),
      track_metadata: { artist_name: 'Mira Vale, Ode', track_name: 'Song 1', release_name: 'Blue Hour' },
    })
    history.clear()
    expect(history.state().count).toBe(0)
    expect(history.importFile(file.text)).toEqual({ added: 30, skipped: 0 })
    expect(history.page(100).rows.map(({ id: _id, ...rest }) => rest)).toEqual(before)
    // The same file again adds nothing twice.
    expect(history.importFile(file.text)).toEqual({ added: 0, skipped: 30 })
    history.dispose()
  })

  it('takes a bare list of listens (ListenBrainz’s own export)', () => {
    const { history } = service()
    const text = JSON.stringify([
      { listened_at: 1_700_000_000, track_metadata: { artist_name: 'Ode', track_name: 'North' } },
    ])
    expect(history.importFile(text)).toEqual({ added: 1, skipped: 0 })
    expect(history.page(1).rows[0]).toMatchObject({
      title: 'North',
      artists: ['Ode'],
      listenedAt: 1_700_000_000_000,
    })
    history.dispose()
  })

  it('refuses a malformed or enormous import with a reason, adding nothing', () => {
    const { history } = service()
    history.record(listen(1))
    const good = JSON.parse(history.exportFile().text)
    const entries = Array.from({ length: 1000 }, (_, i) => ({
      ...good.payload[0],
      listened_at: good.payload[0].listened_at + i + 1,
      track_metadata: { ...good.payload[0].track_metadata, additional_info: {} },
    }))
    entries[600] = { listened_at: 'yesterday', track_metadata: { artist_name: 'x', track_name: 'y' } }
    const refusals: Array<[string, RegExp]> = [
      ['{ not json', /not JSON/],
      [JSON.stringify({ listens: [] }), /no listens/],
      [JSON.stringify({ payload: entries }), /Listen 601 is not a ListenBrainz listen/],
      [JSON.stringify(Array.from({ length: HISTORY_IMPORT_MAX_LISTENS + 1 }, () => ({}))), /at most 500000/],
      [' '.repeat(HISTORY_IMPORT_MAX_CHARS + 1), /too large/],
    ]
    for (const [text, reason] of refusals) {
      expect(() => history.importFile(text)).toThrow(reason)
      expect(history.state().count).toBe(1)
    }
    history.dispose()
  })

  it('survives a process killed in the middle of a write: the file holds what was written before', async () => {
    const path = join(dir, 'history.sqlite')
    const script = join(dir, 'crash.mjs')
    // The real store in a child process; the 5,000-listen write kills the process at its 2,500th listen.
    await writeFile(
      script,
      `import { openHistoryStore } from ${JSON.stringify(STORE_TS)}
      const store = openHistoryStore(${JSON.stringify(path)})
      const one = (n) => ({ listenedAt: 1e12 + n, sourceId: 's', songId: String(n), title: 't', artists: ['a'], durationMs: 60000 })
      store.add([one(0)])
      const many = { *[Symbol.iterator]() { for (let n = 1; n <= 5000; n++) { if (n === 2500) process.kill(process.pid, 'SIGKILL'); yield one(n) } } }
      store.add(many)
      `,
    )
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const signal = await new Promise<NodeJS.Signals | null>((done) =>
      child.on('exit', (_code, sig) => done(sig)),
    )
    expect(signal, stderr).toBe('SIGKILL')

    const store = openHistoryStore(path)
    expect(store.intact()).toBe(true)
    expect(store.count()).toBe(1)
    store.add([listen(1)])
    expect(store.count()).toBe(2)
    store.close()
  })

  it('keeps listens the full disk refused in memory, shows them, and writes them once there is room', () => {
    const { history, store, timers } = service(join(dir, 'small.sqlite'), 1)
    // The file is held at its size: listens fill its pages, then the disk refuses them.
    let n = 0
    while (history.state().waiting === 0 && n < 2000) expect(history.record(listen(++n))).toBe(true)
    const written = store.count()
    expect(written).toBeLessThan(n)
    history.record(listen(++n))
    expect(history.state()).toMatchObject({ count: n, waiting: n - written })
    // The waiting ones are shown with the rest, newest first.
    expect(history.page(3).rows.map((r) => r.songId)).toEqual([n, n - 1, n - 2].map(String))
    expect(timers.delays()).toEqual([HISTORY_RETRY_MS])
    // Space again: the retry writes them, nothing lost, nothing twice.
    store.setMaxPages(1_000_000)
    timers.fire(HISTORY_RETRY_MS)
    expect(history.state()).toMatchObject({ count: n, waiting: 0 })
    expect(store.count()).toBe(n)
    expect(new Set(history.page(500).rows.map((r) => r.songId)).size).toBe(n)
    expect(store.intact()).toBe(true)
    history.dispose()
  })

  it('opens an older file (layout 0, no table yet) and brings it up to date', async () => {
    const path = join(dir, 'old.sqlite')
    const { DatabaseSync } = await import('node:sqlite')
    const old = new DatabaseSync(path)
    old.exec('CREATE TABLE notes (x TEXT)')
    old.close()
    const store = openHistoryStore(path)
    store.add([listen(1)])
    expect(store.count()).toBe(1)
    store.close()
  })
})
