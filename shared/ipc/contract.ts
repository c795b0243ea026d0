import { z } from 'zod'
import { idSchema } from '../api/models'
import type { Artist, Id, LikeResult, Playlist, SearchResult, Song, User } from '../api/models'
import { settingsPatchSchema } from '../settings'
import type { Settings } from '../settings'
import type { ErrorPayload } from '../errors'

/**
 * The IPC contract: every channel between renderer and main, declared once. Main registers its handlers
 * from it (arguments parsed with `args`), the preload builds `window.cadence` from it, the tests use it.
 * Names are `domain:verb`.
 */

/** A channel spec: the schema for its one argument and (type only) its result. */
export interface ChannelSpec<A extends z.ZodType, R> {
  args: A
  /** Phantom: never read at run time. */
  result?: R
}
const channel = <R>() => ({
  args: <A extends z.ZodType>(args: A): ChannelSpec<A, R> => ({ args }),
})

const none = z.undefined()
const limitArgs = (max: number) =>
  z
    .object({ limit: z.number().int().min(1).max(max).optional() })
    .strict()
    .optional()
const byId = z.object({ id: idSchema }).strict()

// ---- shapes that only exist between our processes ----

/** The built-in data source's process: `reconnecting` while main restarts it, `failed` when it gave up. */
export type DataSourceState = 'starting' | 'ready' | 'reconnecting' | 'failed'
export interface DataSourceInfo {
  id: string
  name: string
  url: string
  builtin: boolean
  /** Plain http to a non-loopback host: shown with a warning. */
  insecure: boolean
  /** Only on the built-in source (added sources are not supervised). */
  state?: DataSourceState
}
export interface SourceList {
  sources: DataSourceInfo[]
  activeId: string
}

export type AuthStatus = 'signed-in' | 'signed-out' | 'expired' | 'unknown'
export interface CredentialStorageInfo {
  /** Where the credential is kept now. */
  mode: 'encrypted' | 'insecure' | 'memory'
  /** The OS offers no real encryption (Linux without a keyring): persisting needs the user's consent. */
  encryptionUnavailable: boolean
  /** Backend name when known (e.g. `gnome_libsecret`, `basic_text`). */
  backend?: string
}
export interface AuthState {
  sourceId: string
  status: AuthStatus
  user: User | null
  storage: CredentialStorageInfo
  /** Set when status could not be checked (data source unreachable). */
  error?: ErrorPayload
}

export type QrPhase = 'loading' | 'waiting' | 'scanned' | 'expired' | 'authorised' | 'error' | 'cancelled'
export interface QrEvent {
  phase: QrPhase
  /** A PNG data URI of the code (from the server, or rendered locally from `qrurl`). */
  qrimg?: string
  qrurl?: string
  /** How many times the code was refreshed after expiring. */
  refreshes?: number
  user?: User
  error?: ErrorPayload
}

export const PLAYER_COMMANDS = [
  'play',
  'pause',
  'toggle',
  'next',
  'previous',
  'stop',
  'like',
  'unlike',
] as const
export type PlayerCommandName = (typeof PLAYER_COMMANDS)[number]
export interface PlayerCommand {
  command: PlayerCommandName
}

export const playerStateSchema = z
  .object({
    playing: z.boolean(),
    song: z
      .object({
        id: idSchema,
        name: z.string().max(500),
        artists: z.string().max(1000),
        liked: z.boolean(),
      })
      .strict()
      .nullable(),
  })
  .strict()
export type PlayerState = z.infer<typeof playerStateSchema>

/** What the player saves to restore the next start (the queue's own serialised form is the player's). */
export const playerSessionSchema = z
  .object({
    version: z.literal(1),
    queue: z.unknown(),
    positionMs: z.number().min(0),
    volume: z.number().min(0).max(1),
    muted: z.boolean(),
  })
  .strict()
export type PlayerSession = z.infer<typeof playerSessionSchema>

export interface AppInfo {
  name: string
  version: string
  platform: string
}

// ---- channels: renderer → main (invoke) ----

export const invokeChannels = {
  'app:info': channel<AppInfo>().args(none),
  'app:open-external': channel<void>().args(
    z.object({ url: z.url({ protocol: /^https?$/ }).max(2048) }).strict(),
  ),

  'catalog:recommend-playlists': channel<Playlist[]>().args(limitArgs(100)),
  'catalog:toplists': channel<Playlist[]>().args(limitArgs(100)),
  'catalog:user-playlists': channel<Playlist[]>().args(
    z
      .object({
        limit: z.number().int().min(1).max(1000).optional(),
        offset: z.number().int().min(0).max(1_000_000).optional(),
      })
      .strict()
      .optional(),
  ),
  'catalog:playlist': channel<Playlist>().args(byId),
  'catalog:recommend-songs': channel<Song[]>().args(limitArgs(100)),
  'catalog:recommend-artists': channel<Artist[]>().args(limitArgs(100)),
  'catalog:artist': channel<Playlist>().args(byId),
  'catalog:search': channel<SearchResult>().args(
    z
      .object({
        keywords: z.string().trim().min(1).max(200),
        limit: z.number().int().min(1).max(100).optional(),
      })
      .strict(),
  ),
  'catalog:like': channel<LikeResult>().args(z.object({ id: idSchema, like: z.boolean() }).strict()),

  'player:resolve': channel<Song>().args(
    z.object({ id: idSchema, br: z.number().int().min(1).max(100_000_000).optional() }).strict(),
  ),
  'player:report-state': channel<void>().args(playerStateSchema),
  'player:save-session': channel<void>().args(playerSessionSchema),
  'player:load-session': channel<PlayerSession | null>().args(none),

  'auth:status': channel<AuthState>().args(none),
  'auth:start-qr': channel<void>().args(none),
  'auth:cancel-qr': channel<void>().args(none),
  /** The last `auth:qr` event of the running (or last) QR login, for a login window that opens late. */
  'auth:qr-state': channel<QrEvent | null>().args(none),
  'auth:logout': channel<void>().args(none),

  'sources:list': channel<SourceList>().args(none),
  'sources:add': channel<DataSourceInfo>().args(
    z
      .object({ url: z.string().trim().min(1).max(2048), name: z.string().trim().min(1).max(100).optional() })
      .strict(),
  ),
  'sources:remove': channel<void>().args(z.object({ id: z.string().min(1).max(100) }).strict()),
  'sources:activate': channel<void>().args(z.object({ id: z.string().min(1).max(100) }).strict()),

  'settings:get': channel<Settings>().args(none),
  'settings:update': channel<Settings>().args(settingsPatchSchema),
} satisfies Record<string, ChannelSpec<z.ZodType, unknown>>

export type InvokeChannel = keyof typeof invokeChannels
export type ChannelArgs<C extends InvokeChannel> = z.input<(typeof invokeChannels)[C]['args']>
export type ParsedChannelArgs<C extends InvokeChannel> = z.output<(typeof invokeChannels)[C]['args']>
export type ChannelResult<C extends InvokeChannel> =
  (typeof invokeChannels)[C] extends ChannelSpec<z.ZodType, infer R> ? R : never

export const INVOKE_CHANNELS = Object.keys(invokeChannels) as InvokeChannel[]

// ---- events: main → renderer ----

export interface EventMap {
  'auth:qr': QrEvent
  'auth:changed': AuthState
  'player:command': PlayerCommand
  'sources:changed': SourceList
  'settings:changed': Settings
}
export type EventName = keyof EventMap
export const EVENT_NAMES: readonly EventName[] = [
  'auth:qr',
  'auth:changed',
  'player:command',
  'sources:changed',
  'settings:changed',
]

// ---- what crosses the wire ----

/** Every invoke answers with a result value, never a thrown error: typed errors cross as data. */
export type IpcResult<T = unknown> = { ok: true; value: T } | { ok: false; error: ErrorPayload }

export type { Id }
