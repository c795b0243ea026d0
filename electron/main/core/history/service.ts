import { HISTORY_STATS_TOP, PLACEHOLDER_SONG_ID } from '@shared/ipc/history'
import type {
  HistoryCursor,
  HistoryImportResult,
  HistoryPage,
  HistoryState,
  HistoryStats,
  HistoryStatsRange,
  Listen,
} from '@shared/ipc/history'
import { CadenceError } from '@shared/errors'
import type { EventHub } from '../events'
import type { Logger } from '../log'
import type { Timers } from '../ports'
import { fromListenBrainz, ImportRefused, toListenBrainz } from './listenbrainz'
import type { HistoryStore } from './store'

/** A listen the disk refused is tried again this often. */
export const HISTORY_RETRY_MS = 30_000
const STATS_DAYS = { week: 7, month: 30, year: 365 } as const
/** At most this many listens wait in memory (the oldest go first past it). */
const MAX_WAITING = 10_000

/**
 * The listening history in main (docs/main-process.md): listens the renderer reports by the listen rule
 * (`shared/player/listen-rule.ts`), never the `free-app` placeholder and nothing in a private session.
 * A listen the disk refuses (full) waits in memory, shown with the rest, and is written later; reads,
 * export, import (all or nothing, refused with a reason) and clear go to the store.
 */
export function createHistoryService(deps: {
  store: HistoryStore
  events: EventHub
  timers: Timers
  log: Logger
}) {
  const { store } = deps
  let waiting: Listen[] = []
  let privateSession = false
  let retry: unknown
  let disposed = false

  const state = (): HistoryState => ({
    count: store.count() + waiting.length,
    private: privateSession,
    waiting: waiting.length,
  })
  const changed = () => deps.events.emit('history:changed', state())

  /** Writes what waits; on failure keeps it and tries again later. */
  function flush(): boolean {
    if (waiting.length === 0) return true
    try {
      store.add(waiting)
      waiting = []
      return true
    } catch (error) {
      deps.log.warn('history: a listen could not be written, kept to write later', {
        error: String((error as Error)?.message ?? error),
        waiting: waiting.length,
      })
      if (retry === undefined) {
        retry = deps.timers.setTimeout(() => {
          retry = undefined
          if (flush()) changed()
        }, HISTORY_RETRY_MS)
      }
      return false
    }
  }

  return {
    state,
    /** Records one listen; answers whether it was kept (not in a private session, not a placeholder). */
    record(listen: Listen): boolean {
      if (privateSession || listen.songId === PLACEHOLDER_SONG_ID) return false
      waiting.push(listen)
      if (waiting.length > MAX_WAITING) waiting.splice(0, waiting.length - MAX_WAITING)
      flush()
      changed()
      return true
    },
    /** Newest first; the listens waiting for the disk lead the first page. */
    page(limit: number, before?: HistoryCursor): HistoryPage {
      const pending = before
        ? []
        : waiting
            .map((l, i) => ({ ...l, id: -1 - i }))
            .sort((a, b) => b.listenedAt - a.listenedAt)
            .slice(0, limit)
      const rows = [...pending, ...store.page(limit - pending.length, before)]
      const last = rows.at(-1)
      const full = rows.length === limit && last !== undefined && last.id > 0
      return { total: state().count, rows, ...(full ? { next: { at: last.listenedAt, id: last.id } } : {}) }
    },
    /** The songs (`sourceId:songId`) heard since `at` (autoplay leaves them out). */
    heardSince(at: number): Set<string> {
      const heard = store.heardSince(at)
      for (const l of waiting) if (l.listenedAt >= at) heard.add(`${l.sourceId}:${l.songId}`)
      return heard
    },
    /**
     * Time listened, the top songs, artists and albums and the listens per local day for the last week,
     * month (30 days), year (365 days) or all time; what waits for the disk is written first (what it
     * still refuses is left out).
     */
    stats(range: HistoryStatsRange, utcOffsetMinutes: number, now = Date.now()): HistoryStats {
      flush()
      const since = range === 'all' ? 0 : now - STATS_DAYS[range] * 86_400_000
      return { range, since, ...store.stats(since, utcOffsetMinutes, HISTORY_STATS_TOP) }
    },
    setPrivate(on: boolean): HistoryState {
      privateSession = on
      changed()
      return state()
    },
    clear() {
      waiting = []
      store.clear()
      changed()
    },
    exportFile() {
      flush()
      const date = new Date().toISOString().slice(0, 10)
      return {
        fileName: `cadence-listens-${date}.json`,
        mime: 'application/json',
        text: toListenBrainz(store.all()),
      }
    },
    /** Reads the whole file first, then writes it in one transaction: any fault, and nothing is added. */
    importFile(text: string): HistoryImportResult {
      let listens: Listen[]
      try {
        listens = fromListenBrainz(text)
      } catch (error) {
        if (!(error instanceof ImportRefused)) throw error
        throw new CadenceError({ kind: 'invalid-argument', message: error.message })
      }
      const added = store.add(listens)
      changed()
      return { added, skipped: listens.length - added }
    },
    /** Writes what is pending and closes the file; a second call (the core disposed twice) does nothing. */
    dispose() {
      if (disposed) return
      disposed = true
      if (retry !== undefined) deps.timers.clearTimeout(retry)
      flush()
      store.close()
    },
  }
}

export type HistoryService = ReturnType<typeof createHistoryService>
