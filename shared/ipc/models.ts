import type { Id, Playlist, Song, User } from '../api/models'
import type { ErrorPayload } from '../errors'
import type { CollectionSong } from './collection-song'

/**
 * The shapes of the IPC contract that are plain data: what `./contract` declares channels with and
 * `./schemas` checks. It imports neither, so the two do not import each other.
 */

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
  /**
   * One more host of the user's network this source may point media and covers at (a NAS beside a home
   * server), besides its own host and public addresses. Added sources only.
   */
  localHost?: string
}
export interface SourceList {
  sources: DataSourceInfo[]
  activeId: string
}

/**
 * "Let my phone sign in": the built-in data source opened to the network. `addresses` are what another
 * device opens (empty until it listens there); `passphrase` is the owner passphrase the phone page asks
 * for, present only while the setting is on and only in the answer to a call made for "Show"
 * (`{ show: true }`), never in an event; `kept` says where that passphrase is stored.
 */
export interface PhoneAccess {
  enabled: boolean
  listening: boolean
  addresses: string[]
  passphrase?: string
  kept: CredentialStorageInfo['mode']
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
  /**
   * The code's page is on this computer (a loopback address): no phone can open it, so the login window
   * offers to open it here, in the default browser (`auth:open-qr-page`).
   */
  onThisComputer?: boolean
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
  /** Main is about to quit: save the session (queue, position) now. */
  'save-session',
  /** The tray's "cancel the sleep timer". */
  'cancel-sleep',
  /** Global shortcuts: the volume a step up or down. */
  'volume-up',
  'volume-down',
] as const
export type PlayerCommandName = (typeof PLAYER_COMMANDS)[number]
export interface PlayerCommand {
  command: PlayerCommandName
}

/** The line being sung and the next, for the desktop lyrics window (main relays them from the player). */
export interface LyricLine {
  current: string
  translation?: string
  next: string
}
/** A song that started playing, for the track-change notification. */
export interface TrackInfo {
  id: Id
  name: string
  artists: string
  album?: string
  /** The cover's http(s) address (main fetches it for the notification's icon). */
  cover?: string
  /** The cover already drawn by the renderer as a small PNG data URI (any format, SVG too): used first. */
  coverImage?: string
}
/** The main window as a full window or as the mini player. */
export interface WindowMode {
  mini: boolean
}

/**
 * A playlist of the user's own, kept by main per data source (the API has no playlist writes). Its songs
 * are snapshots of what the data source said when they were added (no media URL, no lyrics).
 */
export interface CollectionSummary {
  id: string
  name: string
  size: number
  /** Sum of the songs' known durations, in milliseconds. */
  durationMs: number
  /** The first song's album cover, if any. */
  cover?: string
  createdAt: number
  updatedAt: number
}
export type { CollectionSong }
export interface CollectionPlaylist extends CollectionSummary {
  songs: CollectionSong[]
}
export type CollectionFormat = 'm3u8' | 'json'
/** An exported playlist: the file's suggested name and its text. */
export interface CollectionFile {
  fileName: string
  mime: string
  text: string
}
/** What adding songs did: songs already in the playlist are not added twice. */
export interface CollectionAddResult {
  added: number
  skipped: number
  playlist: CollectionSummary
}

/**
 * Endpoints some data sources answer beyond the API document (NeteaseMusicAdapter's), learnt per source
 * by use: `unknown` until tried, `absent` once it answered 404, `present` once it answered anything else.
 */
export const DATA_SOURCE_EXTENSIONS = [
  'album-detail',
  'song-like-state',
  'playlist-create',
  'playlist-songs',
  'playlist-subscribe',
  'album-like',
  'album-sublist',
] as const
export type DataSourceExtension = (typeof DATA_SOURCE_EXTENSIONS)[number]
export type CapabilityState = 'present' | 'absent' | 'unknown'
export type Capabilities = Record<DataSourceExtension, CapabilityState>
export interface CapabilitiesChange {
  sourceId: string
  capabilities: Capabilities
}

/**
 * The songs the signed-in user likes on the active source, from the liked-songs playlist: `ids` as
 * strings, or null while unknown (signed out, not loaded yet, or the playlist could not be read).
 */
export interface LikedSongs {
  sourceId: string
  ids: string[] | null
  playlistId?: Id
}

export interface AppInfo {
  name: string
  version: string
  platform: string
}

/**
 * The installed app's updates (core/updates/service.ts): `idle` (nothing to offer, or the feed could not
 * be reached: said nowhere), `downloading` in the background, `ready` to restart into, or `failed` when
 * the download did not match the signed checksum and was refused, or `refused` before any download: the
 * feed's metadata carried no signature (`unsigned`), one the app's key does not verify (`bad-signature`),
 * or was signed for a version older than the running one (`older`: a replayed feed). Times are epoch
 * milliseconds.
 */
export type UpdateState = { checkedAt: number | null; nextCheckAt: number | null } & (
  | { status: 'idle' }
  | { status: 'downloading'; version: string; percent: number }
  | { status: 'ready'; version: string }
  | { status: 'failed'; version: string; reason: 'corrupt' }
  | { status: 'refused'; reason: 'unsigned' | 'bad-signature' }
  | { status: 'refused'; reason: 'older'; version: string }
)

/**
 * A playlist a page at a time. `catalog:playlist` answers the header, the length of the list and its first
 * rows; `catalog:playlist-rows` answers any other range (of the whole list, or of the songs matching a
 * search within it). Main keeps the whole list, up to `MAX_LIST_ROWS` songs.
 *
 * A row is a `Song` that carries only what a row shows and the player needs before it resolves the song:
 * id, name, translated names, artists' ids and names, the album's id, name and cover, duration, whether
 * it plays (and why not, and its bitrates) and whether it is liked. The rest stays in main.
 */
/**
 * The type of what a row carries, for code that takes rows and whole songs alike (song actions, the
 * user's playlists): a row's album has no artists (see `toRow` in main), so such code must not reach for
 * them. A whole `Song` is a `SongRow`.
 */
export type SongRow = Omit<Song, 'album'> & {
  album?: Omit<NonNullable<Song['album']>, 'artists'> & { artists?: NonNullable<Song['album']>['artists'] }
}
/**
 * The most songs main keeps of one list (a playlist or an album), whatever size the data source claims: the
 * reference data source's own cap on a detail. Past it main fetches nothing more of the list.
 */
export const MAX_LIST_ROWS = 100_000
/**
 * A list cut short by main: the data source claimed `claimed` songs (in `size`, or by sending them),
 * `shown` of them are shown. Present only when the claim passed what main keeps.
 */
export interface ListCap {
  claimed: number
  shown: number
}
export type PlaylistHead = Omit<Playlist, 'songs'> & {
  /** How many songs the list has (at most `MAX_LIST_ROWS`). */
  total: number
  /** Rows from index 0 (enough for the first screens). */
  rows: Song[]
  /** The songs' total time in ms, when main has the whole list (and any song says how long it is). */
  duration?: number
  /** The source claimed more songs than main keeps. */
  capped?: ListCap
}
/** An album's detail (`albums:detail`): at most `MAX_LIST_ROWS` songs, `capped` when it claimed more. */
export type AlbumDetail = Playlist & { capped?: ListCap }
/**
 * The longest search the app sends, in characters: the reference data source's own cap (longer words
 * are refused there with HTTP 400, which no retry can fix), so the field stops there.
 */
export const SEARCH_KEYWORDS_MAX = 100

/** How a playlist's rows can be ordered besides the playlist's own order (`catalog:playlist-rows`). */
export const PLAYLIST_SORTS = ['title', 'artist', 'album', 'duration'] as const
export type PlaylistSortKey = (typeof PLAYLIST_SORTS)[number]
export interface PlaylistSort {
  by: PlaylistSortKey
  descending?: boolean
}

export interface PlaylistRows {
  /** The length of the list asked about: the whole playlist, or the matches of `query`. */
  total: number
  offset: number
  rows: Song[]
  /** The playlist was cut short (see `PlaylistHead.capped`): a search looked at the songs kept. */
  capped?: ListCap
}

// ---- channels: renderer → main (invoke) ----

/** Every invoke channel; the argument schemas are in `./schemas` (main only), one per name here. */
export const INVOKE_CHANNELS = [
  'app:info',
  'app:copy-text',
  'catalog:recommend-playlists',
  'catalog:toplists',
  'catalog:user-playlists',
  'catalog:playlist',
  'catalog:playlist-rows',
  'catalog:recommend-songs',
  'catalog:recommend-artists',
  'catalog:artist',
  'catalog:search',
  'catalog:like',
  'player:resolve',
  'player:report-state',
  'player:save-session',
  'player:load-session',
  'auth:status',
  'auth:start-qr',
  'auth:cancel-qr',
  'auth:qr-state',
  'auth:open-qr-page',
  'auth:logout',
  'sources:list',
  'sources:add',
  'sources:remove',
  'sources:activate',
  'sources:set-local-host',
  'sources:rename',
  'sources:phone-access',
  'sources:renew-phone-passphrase',
  'settings:get',
  'settings:update',
  'lyrics:report-line',
  'lyrics:current-line',
  'window:set-mini',
  'notify:track-changed',
  'collection:list',
  'collection:get',
  'collection:create',
  'collection:rename',
  'collection:delete',
  'collection:add',
  'collection:remove',
  'collection:move',
  'collection:export',
  'collection:import',
  'capabilities:get',
  'albums:detail',
  'albums:saved',
  'albums:save',
  'likes:state',
  'likes:refresh',
  'likes:song',
  'account:create-playlist',
  'account:add-songs',
  'account:remove-songs',
  'account:can-change-songs',
  'account:subscribe',
  'updates:state',
  'updates:install',
  'updates:check',
  'downloads:add',
  'downloads:list',
  'downloads:summary',
  'downloads:remove',
  'downloads:pause',
  'downloads:resume',
  'downloads:retry',
  'media:cache-info',
  'media:clear-cache',
  'media:available',
  'offline:state',
  'offline:check',
  'history:record',
  'history:page',
  'history:state',
  'history:set-private',
  'history:clear',
  'history:export',
  'history:import',
  'history:heard-since',
  'shortcuts:state',
  'shortcuts:retry',
  'scrobble:state',
  'scrobble:connect-listenbrainz',
  'scrobble:lastfm-begin',
  'scrobble:lastfm-finish',
  'scrobble:disconnect',
  'scrobble:now-playing',
  'presence:report',
  'discord:status',
  'lrclib:lookup',
  'lrclib:results',
  'lrclib:choose',
  'lrclib:hide',
  'library:folders',
  'library:add-folder',
  'library:remove-folder',
  'library:cancel-import',
  'history:stats',
  'library:demo',
  'library:set-demo',
] as const satisfies readonly `${string}:${string}`[]

export type InvokeChannel = (typeof INVOKE_CHANNELS)[number]
