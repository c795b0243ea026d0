import type { z } from 'zod'
import type { Id } from '../api/models'
import type { Settings } from '../settings'
import type { ErrorPayload } from '../errors'
import type { DownloadsSummary, OfflineAvailability, OfflineState } from './offline'
import type { HistoryState } from './history'
import type { ShortcutsState } from '../global-shortcuts'
import type { ScrobbleState } from './scrobble'
import type { DiscordStatus } from './discord-lrclib'
import type { MusicFoldersState } from './music-folders'
import type { ChannelSpec, invokeChannels, playerSessionSchema, playerStateSchema } from './schemas'
import type { InvokeChannel } from './models'
import type {
  AuthState,
  CapabilitiesChange,
  CollectionSummary,
  LikedSongs,
  LyricLine,
  PlayerCommand,
  QrEvent,
  SourceList,
  UpdateState,
  WindowMode,
} from './models'

/**
 * The IPC contract: every channel between renderer and main, declared once. This module has no run-time
 * dependency (zod is imported for types only), so the preload and the renderer can use it; the argument
 * schemas main parses with are in `./schemas`. Names are `domain:verb`.
 */

// ---- shapes that only exist between our processes (`./models`) ----

export * from './models'

export type PlayerState = z.infer<typeof playerStateSchema>
/** What the player saves to restore the next start (the queue's own serialised form is the player's). */
export type PlayerSession = z.infer<typeof playerSessionSchema>

export type ChannelArgs<C extends InvokeChannel> = z.input<(typeof invokeChannels)[C]['args']>
export type ParsedChannelArgs<C extends InvokeChannel> = z.output<(typeof invokeChannels)[C]['args']>
export type ChannelResult<C extends InvokeChannel> =
  (typeof invokeChannels)[C] extends ChannelSpec<z.ZodType, infer R> ? R : never

// ---- events: main → renderer ----

export interface EventMap {
  'auth:qr': QrEvent
  'auth:changed': AuthState
  'player:command': PlayerCommand
  'sources:changed': SourceList
  'settings:changed': Settings
  'lyrics:line': LyricLine
  'window:mode': WindowMode
  /** The active data source's own playlists changed (or another source became active). */
  'collection:changed': CollectionSummary[]
  /** What the active data source was found to offer or lack. */
  'capabilities:changed': CapabilitiesChange
  /** The liked songs were (re)loaded or changed. */
  'likes:changed': LikedSongs
  'updates:changed': UpdateState
  /** The download queue moved (at most a few times a second). */
  'downloads:changed': DownloadsSummary
  /** Songs became available offline, or stopped being (downloads, the cache, another source). */
  'media:available-changed': OfflineAvailability
  /** The data source became unreachable, or reachable again. */
  'offline:changed': OfflineState
  /** A listen was recorded, history imported or cleared, or a private session began or ended. */
  'history:changed': HistoryState
  /** A global shortcut was registered, found taken by another application, or cleared. */
  'shortcuts:changed': ShortcutsState
  /** A scrobbling service was connected or disconnected, its queue moved, or its status changed. */
  'scrobble:changed': ScrobbleState
  /** Discord Rich Presence's connection changed (Settings shows it as a status line). */
  'discord:changed': DiscordStatus
  /** The music folders changed, or their import moved on or finished. */
  'library:changed': MusicFoldersState
}
export type EventName = keyof EventMap
/** One entry per event: an event added to `EventMap` and not here (or here and not there) fails the typecheck. */
const EVENTS = {
  'auth:qr': true,
  'auth:changed': true,
  'player:command': true,
  'sources:changed': true,
  'settings:changed': true,
  'lyrics:line': true,
  'window:mode': true,
  'collection:changed': true,
  'capabilities:changed': true,
  'likes:changed': true,
  'updates:changed': true,
  'downloads:changed': true,
  'media:available-changed': true,
  'offline:changed': true,
  'history:changed': true,
  'shortcuts:changed': true,
  'scrobble:changed': true,
  'discord:changed': true,
  'library:changed': true,
} as const satisfies Record<EventName, true>
export const EVENT_NAMES: readonly EventName[] = Object.keys(EVENTS) as EventName[]

// ---- what crosses the wire ----

/** Every invoke answers with a result value, never a thrown error: typed errors cross as data. */
export type IpcResult<T = unknown> = { ok: true; value: T } | { ok: false; error: ErrorPayload }

export type { Id }
export type {
  DownloadRow,
  DownloadState,
  DownloadsPage,
  DownloadsSummary,
  MediaCacheInfo,
  OfflineAvailability,
  OfflineState,
} from './offline'
