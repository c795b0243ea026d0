import type { Song } from '@shared/api/models'
import type { CadenceError } from '@shared/errors'
import type { QueueEntry } from '@shared/player/queue'
import type { Quality } from '@shared/settings'
import type { PlayerOutput } from './audio/player-output'

/** The playback engine's types (`engine.ts`): its notices, status, queue, dependencies and load options. */

export type SkipCause = 'unplayable' | 'no-url' | 'load-failed' | 'error'
export type PlayerNotice =
  /** `count`: songs skipped in a row for the same reason (one notice says so, not one per song). */
  | { type: 'skipped'; song: string; reason?: string; cause: SkipCause; count?: number }
  /** `error`, when there is one, is what the notice describes in the user's language (`errorText`). */
  | { type: 'stopped'; message: string; error?: CadenceError }
  | { type: 'failed'; message: string; error?: CadenceError }
  /** The source stopped answering mid-song: it played as far as its bytes had come, and stopped there. */
  | { type: 'cut-short'; song: string }
  /** Offline, and no song after `song` (which could not play) is on this computer: the queue stops. */
  | { type: 'offline-end'; song: string }
  /** Play was pressed with nothing in the queue. */
  | { type: 'empty' }
  /** The chosen output device is not connected: playing on the system default (`label` names it). */
  | { type: 'device'; label: string }
export type PlayerStatus = 'idle' | 'loading' | 'ready' | 'error'

/** The part of the queue the engine moves through (the queue store). */
export interface EngineQueue {
  readonly currentEntry: QueueEntry<Song> | undefined
  readonly entries: readonly unknown[]
  next(): boolean
  previous(): boolean
  advance(): 'same' | 'moved' | 'end'
  peekNext(): Song | undefined
  /** Makes the entry with this key current (optional: fakes in tests may leave it out). */
  jumpTo?(key: string): void
  /** The entry `advance` would move to when the current song ends (the current one for repeat one). */
  peekAdvance?(): QueueEntry<Song> | undefined
}

export interface PlaybackEngineDeps {
  queue: EngineQueue
  /** `player:resolve`: the song with a signed URL in `meta.url`. */
  resolve: (args: { id: Song['id']; br: number; sourceId?: string }) => Promise<Song>
  quality: () => Quality
  /** Resolves once the settings are known (the bitrate depends on them). */
  ready: () => Promise<void>
  notify: (notice: PlayerNotice) => void
  /**
   * Whether a song plays without the data source: undefined while it can be reached (or not known), else
   * whether the song is on this computer. Offline, skipping moves only to songs that are.
   */
  playableOffline?: (song: Song) => boolean | undefined
  /** Makes the element (default: the real one in the document). */
  createOutput?: () => PlayerOutput
  /** State worth saving changed: `pause`d, the queue `end`ed, or the clock moved on (`tick`). */
  onProgress?: (reason: 'pause' | 'end' | 'tick') => void
}

export interface LoadOptions {
  autoplay: boolean
  positionMs?: number
  /** How many songs in a row were skipped to get here (stops when the whole queue is unplayable). */
  skipped?: number
  /** The entry the skipping started from: the queue goes back there when nothing after it plays. */
  skipFrom?: string
  direction?: 1 | -1
}
