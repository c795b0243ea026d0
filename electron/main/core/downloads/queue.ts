import { CadenceError } from '@shared/errors'
import type { CollectionSong, DownloadsPage, DownloadsSummary, DownloadState } from '@shared/ipc/contract'
import { debouncedWrite } from '../debounced'
import type { CacheKey } from '../media-cache'
import { BACKOFF_BASE_MS, BACKOFF_MAX_MS, MAX_ATTEMPTS, NotAvailable, backoffMs, judge } from './retry'
import type { Verdict } from './retry'
import { DOWNLOADS_KEY, coversOf, idsOf, itemKey, listPage, loadQueue, newItem } from './store'
import { savedQueue, summarize } from './store'
import type { Item } from './store'
import type { DownloadsDeps, ResolvedDownload } from './types'

export { BACKOFF_BASE_MS, BACKOFF_MAX_MS, DOWNLOADS_KEY, MAX_ATTEMPTS, backoffMs }
export type { DownloadsDeps, ResolvedDownload }

/** Songs fetched at once. */
export const DEFAULT_CONCURRENCY = 3
/**
 * Most songs the queue holds (done or not): each is kept in the store, which is written whole, and walked
 * for every summary. As many as the largest playlist the app keeps (`COLLECTION_MAX_SONGS`).
 */
export const MAX_DOWNLOADS = 10_000
/** The queue is written at most this often (electron-store rewrites its whole file each time). */
const SAVE_DELAY_MS = 1500
const EMIT_DELAY_MS = 200

/**
 * The download queue: songs made available offline, kept in the store so a queue of 10,000 songs survives
 * a restart. At most `concurrency` songs are fetched at once; a failed try waits (2 s, 4 s, … 5 min) and
 * is tried again, up to `MAX_ATTEMPTS`; while the data source is unreachable nothing is spent. A try, a
 * resume after a pause or a restart carries on from the bytes already on disk (the media cache asks for
 * the rest with `Range`). A full disk pauses the whole queue with a message. A finished download is
 * pinned in the media cache: never evicted.
 */
export function createDownloads(deps: DownloadsDeps) {
  const now = deps.now ?? Date.now
  const concurrency = deps.concurrency ?? DEFAULT_CONCURRENCY
  /** Keys in the order they are to be fetched (stale keys are skipped when reached). */
  let pending: string[] = []
  let head = 0
  const running = new Map<string, AbortController>()
  const retryTimers = new Map<string, unknown>()
  let revision = 0

  // ---- persistence ----
  const loaded = loadQueue(deps.store)
  const items = loaded.items
  let paused = loaded.paused
  /** Paused by a full disk (not by the user): what stops leaves nothing behind. */
  let diskFull = false
  let message = loaded.message
  const saved = debouncedWrite(
    () => deps.store.set(DOWNLOADS_KEY, savedQueue(paused, message, items.values())),
    SAVE_DELAY_MS,
    deps.timers,
  )
  const save = saved.schedule
  const flush = saved.flush

  // ---- change notices ----
  const notice = debouncedWrite(() => deps.onChange(summary()), EMIT_DELAY_MS, deps.timers)
  const changed = (persist = true) => {
    revision++
    if (persist) save()
    notice.schedule()
  }

  const summary = (): DownloadsSummary => summarize(items, paused, message, revision)

  // ---- the worker ----
  const enqueue = (key: string, front = false) => {
    if (front && head > 0) pending[--head] = key
    else if (front) pending.unshift(key)
    else pending.push(key)
  }

  const pump = () => {
    if (paused || deps.isOffline()) return
    while (running.size < concurrency && head < pending.length) {
      const key = pending[head++]!
      const item = items.get(key)
      if (!item || item.state !== 'queued' || running.has(key)) continue
      if (item.sourceId !== deps.activeSourceId()) {
        // Its data source is not the active one: it waits (queued again when the source changes).
        item.state = 'waiting'
        item.error = 'Waits until its data source is the active one'
        changed()
        continue
      }
      void run(key, item)
    }
    // The consumed head is dropped once the queue ran dry (no shift per song on a long queue).
    if (head >= pending.length) {
      pending = []
      head = 0
    }
  }

  const run = async (key: string, item: Item) => {
    const controller = new AbortController()
    running.set(key, controller)
    item.state = 'downloading'
    item.error = undefined
    item.retryAt = undefined
    item.received = 0
    changed()
    const cacheKey: CacheKey = { sourceId: item.sourceId, songId: item.songId, bitrate: item.bitrate }
    try {
      let resolved: ResolvedDownload | undefined
      const file = await deps.cache.fill(
        cacheKey,
        async () => {
          resolved = await deps.resolve(cacheKey, controller.signal)
          if (!resolved.playable || !resolved.origin) {
            throw new NotAvailable(resolved.reason ?? 'The data source does not play this song')
          }
          return resolved.origin
        },
        {
          pin: true,
          signal: controller.signal,
          onProgress: (received, total) => {
            item.received = received
            if (total !== undefined) item.size = total
            changed(false)
          },
        },
      )
      if (items.get(key) !== item) return // removed while it ran
      // Lyrics and cover are kept too; their failure does not undo the audio.
      await resolved
        ?.keep?.()
        .catch((error: unknown) =>
          deps.log.warn('could not keep the lyrics or cover', { songId: item.songId, error: String(error) }),
        )
      item.state = 'done'
      item.size = file.entry.size
      item.received = undefined
      item.attempts = 0
      deps.onAvailabilityChange?.()
    } catch (error) {
      if (items.get(key) !== item) {
        // Removed while it ran: the bytes it had are of no use to anyone.
        await deps.cache.discardPartial(cacheKey)
        return
      }
      item.received = undefined
      const verdict =
        error instanceof NotAvailable ? { kind: 'fatal' as const, message: error.message } : judge(error)
      // Stopped because the disk is full: its bytes go too (a pause by the user keeps them).
      if (verdict.kind === 'cancelled' && diskFull) await deps.cache.discardPartial(cacheKey)
      settle(key, item, verdict)
    } finally {
      running.delete(key)
      changed()
      pump()
    }
  }

  const settle = (key: string, item: Item, verdict: Verdict) => {
    switch (verdict.kind) {
      case 'cancelled':
        item.state = 'queued'
        enqueue(key, true)
        return
      case 'disk-full':
        item.state = 'queued'
        enqueue(key, true)
        paused = true
        diskFull = true
        message = `${verdict.message}: downloads are paused. Free some space, then resume.`
        deps.log.warn('disk full: downloads paused')
        for (const controller of running.values()) controller.abort()
        return
      case 'offline':
        if (!deps.isOffline()) break // one network error while online counts as a try
        item.state = 'waiting'
        item.error = 'Waiting for the data source to come back'
        return
      case 'fatal':
        item.state = 'failed'
        item.error = verdict.message
        return
      case 'retry':
        break
    }
    item.attempts++
    if (item.attempts >= MAX_ATTEMPTS) {
      item.state = 'failed'
      item.error = verdict.message
      return
    }
    const delay = backoffMs(item.attempts)
    item.state = 'waiting'
    item.error = verdict.message
    item.retryAt = now() + delay
    scheduleRetry(key, delay)
  }

  const scheduleRetry = (key: string, delay: number) => {
    const old = retryTimers.get(key)
    if (old !== undefined) deps.timers.clearTimeout(old)
    retryTimers.set(
      key,
      deps.timers.setTimeout(() => {
        retryTimers.delete(key)
        const item = items.get(key)
        if (!item || item.state !== 'waiting') return
        if (deps.isOffline()) {
          item.error = 'Waiting for the data source to come back'
          item.retryAt = undefined
          changed()
          return
        }
        item.state = 'queued'
        item.retryAt = undefined
        enqueue(key)
        changed()
        pump()
      }, delay),
    )
  }

  /**
   * Startup: a done download whose file is gone is fetched again; waiting ones get their timers back; the
   * partial files of songs still to download stay (they carry on from there), any other goes.
   */
  const reconcile = async () => {
    await deps.cache.ready
    await deps.cache.prunePartials(
      [...items.values()]
        .filter((item) => item.state !== 'done')
        .map((item) => ({ sourceId: item.sourceId, songId: item.songId, bitrate: item.bitrate })),
    )
    for (const [key, item] of items) {
      if (item.state === 'done') {
        const cacheKey = { sourceId: item.sourceId, songId: item.songId, bitrate: item.bitrate }
        const held = deps.cache.entry(cacheKey)
        if (held) {
          if (!held.pinned) await deps.cache.pin(cacheKey)
          continue
        }
        item.state = 'queued'
        item.size = undefined
      }
      if (item.state === 'waiting') {
        if (item.retryAt !== undefined) scheduleRetry(key, Math.max(0, item.retryAt - now()))
        continue
      }
      if (item.state === 'queued') enqueue(key)
    }
    changed()
    pump()
  }
  const started = reconcile()

  return {
    started,
    summary,
    flush,
    /**
     * Queues songs; `cover`: the header cover of the playlist or album they are downloaded with, referred
     * to by each of them (`covers()`) until its download is removed.
     */
    add(songs: CollectionSong[], cover?: string): DownloadsSummary {
      const sourceId = deps.activeSourceId()
      const fresh = new Set<string>()
      for (const song of songs) {
        const key = itemKey(sourceId, String(song.id))
        if (!items.has(key)) fresh.add(key)
      }
      if (items.size + fresh.size > MAX_DOWNLOADS) {
        // All or nothing: a playlist half downloaded without a word would be worse.
        throw new CadenceError({
          kind: 'invalid-argument',
          message:
            `Downloads hold at most ${MAX_DOWNLOADS.toLocaleString('en')} songs: ` +
            `${items.size.toLocaleString('en')} are there and ${fresh.size.toLocaleString('en')} more ` +
            'would not fit. Remove some downloads first.',
        })
      }
      for (const song of songs) {
        const key = itemKey(sourceId, String(song.id))
        const held = items.get(key)
        if (held && cover && !held.covers?.includes(cover)) held.covers = [...(held.covers ?? []), cover]
        if (held) {
          if (held.state === 'failed') {
            held.state = 'queued'
            held.attempts = 0
            held.error = undefined
            enqueue(key)
          }
          continue
        }
        const item = newItem(song, sourceId, deps.bitrateFor(song), now())
        if (cover) item.covers = [cover]
        items.set(key, item)
        if (item.state === 'queued') enqueue(key)
      }
      changed()
      pump()
      return summary()
    },
    list: (args: { offset: number; limit: number; done?: boolean }): DownloadsPage => listPage(items, args),
    /** The header covers the downloads refer to (any state, any source). */
    covers: (): Set<string> => coversOf(items.values()),
    /** Song ids of the source whose download is done (or in one of `states`). */
    doneIds: (sourceId: string, states: readonly DownloadState[] = ['done']): string[] =>
      idsOf(items.values(), sourceId, states),
    async remove(
      songIds: Array<string | number>,
      sourceId = deps.activeSourceId(),
    ): Promise<DownloadsSummary> {
      for (const id of songIds) {
        const key = itemKey(sourceId, String(id))
        const item = items.get(key)
        if (!item) continue
        items.delete(key)
        running.get(key)?.abort()
        const timer = retryTimers.get(key)
        if (timer !== undefined) deps.timers.clearTimeout(timer)
        retryTimers.delete(key)
        // The file stays as an ordinary cached song: the cap may evict it later.
        await deps.cache.pin({ sourceId, songId: item.songId, bitrate: item.bitrate }, false)
      }
      changed()
      deps.onAvailabilityChange?.()
      return summary()
    },
    /** A data source was removed: its downloads go (their files become ordinary cached songs). */
    forgetSource(sourceId: string): Promise<DownloadsSummary> {
      const ids: string[] = []
      for (const item of items.values()) if (item.sourceId === sourceId) ids.push(item.songId)
      return this.remove(ids, sourceId)
    },
    pause(): DownloadsSummary {
      paused = true
      for (const controller of running.values()) controller.abort()
      changed()
      return summary()
    },
    resume(): DownloadsSummary {
      paused = false
      diskFull = false
      message = undefined
      changed()
      pump()
      return summary()
    },
    retry(): DownloadsSummary {
      for (const [key, item] of items) {
        if (item.state !== 'failed' && item.state !== 'waiting') continue
        if (item.state === 'waiting' && running.has(key)) continue
        const timer = retryTimers.get(key)
        if (timer !== undefined) deps.timers.clearTimeout(timer)
        retryTimers.delete(key)
        item.state = 'queued'
        item.attempts = 0
        item.error = undefined
        item.retryAt = undefined
        enqueue(key)
      }
      changed()
      pump()
      return summary()
    },
    /** The data source is reachable again: what waited for it is queued. */
    online() {
      for (const [key, item] of items) {
        if (item.state === 'waiting' && item.retryAt === undefined) {
          item.state = 'queued'
          item.error = undefined
          enqueue(key, true)
        }
      }
      changed()
      pump()
    },
    dispose() {
      for (const controller of running.values()) controller.abort()
      for (const timer of retryTimers.values()) deps.timers.clearTimeout(timer)
      notice.cancel()
      flush()
    },
  }
}

export type Downloads = ReturnType<typeof createDownloads>
