import { watch } from 'vue'
import type { WatchSource } from 'vue'
import type { PlayerSession } from '@shared/ipc/contract'
import { invoke } from '@renderer/services/cadence'
import type { LoadOptions } from './engine'

/**
 * Persistence: the player's session (queue, position, volume) saved through main and restored on the next
 * start, paused at the same position. There is one session whichever data source is active (each queued
 * song names its own source). Saves on pause, at the end of the queue, at least every
 * `SAVE_INTERVAL_MS` while playing, shortly after any queue or volume change, and when the page goes away.
 */

/**
 * While playing, the session is saved at least this often: only the position has moved (pause, the end,
 * an edit and quitting save at once), and each save makes main write its whole settings file, so a
 * crash loses at most this much of the position rather than the disk being written every few seconds.
 */
export const SAVE_INTERVAL_MS = 30_000
/** Queue and volume edits are saved once they settle for this long. */
const EDIT_SETTLE_MS = 300
/**
 * A longer queue (Play all on a 100,000-song playlist) is saved without its songs: main refuses a session
 * over 5 MB anyway, and copying such a queue across the bridge every few seconds would stall the page.
 */
export const MAX_SAVED_QUEUE = 15_000

export interface PlayerSessionDeps {
  /** The queue's serialised form, and a way to put one back. */
  queue: { snapshot(): unknown; restore(data: unknown): void; readonly entries: readonly unknown[] }
  /** The engine's clock, volume and loader. */
  engine: {
    positionMs: number
    volume: number
    muted: boolean
    setVolume(value: number): void
    setMuted(value: boolean): void
    load(options: LoadOptions): Promise<void>
  }
  /** What to watch for edits worth saving (the queue state, the volume, mute). */
  edits: WatchSource[]
}

export type PlayerSessionService = ReturnType<typeof createPlayerSession>

export function createPlayerSession(deps: PlayerSessionDeps) {
  const { queue, engine } = deps
  let restored = false
  let lastSavedAt = 0

  function snapshot(): PlayerSession {
    return {
      version: 1,
      queue: queue.entries.length > MAX_SAVED_QUEUE ? null : queue.snapshot(),
      positionMs: Math.max(0, Math.round(engine.positionMs)),
      volume: engine.volume,
      muted: engine.muted,
    }
  }

  /** Saves now (nothing before the last session was restored, so an empty start cannot overwrite it). */
  function save(): Promise<void> {
    if (!restored) return Promise.resolve()
    lastSavedAt = Date.now()
    return invoke('player:save-session', snapshot()).catch(() => undefined)
  }

  /** The engine's progress: pause and end save at once, the clock at most every `SAVE_INTERVAL_MS`. */
  function onProgress(reason: 'pause' | 'end' | 'tick') {
    if (reason !== 'tick' || Date.now() - lastSavedAt >= SAVE_INTERVAL_MS) void save()
  }

  let saveTimer: ReturnType<typeof setTimeout> | undefined
  watch(deps.edits, () => {
    clearTimeout(saveTimer)
    saveTimer = setTimeout(() => void save(), EDIT_SETTLE_MS)
  })

  /** Restores the last session, paused at the same position. Does nothing if something plays already. */
  async function restore(): Promise<void> {
    let session: PlayerSession | null = null
    try {
      session = await invoke('player:load-session')
    } catch {
      // No session store (yet): start empty.
    }
    const untouched = queue.entries.length === 0
    restored = true
    if (!session || !untouched) return
    queue.restore(session.queue)
    engine.setVolume(session.volume)
    engine.setMuted(session.muted)
    await engine.load({ autoplay: false, positionMs: session.positionMs })
  }

  return { snapshot, save, onProgress, restore }
}
