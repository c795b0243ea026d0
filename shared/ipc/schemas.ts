import { z } from 'zod'
import { IPC_ID_MAX, collectionSongSchema, ipcIdSchema, songRefSchema } from './collection-song'
import type { Id } from '../api/models'
import type { Album, Artist, LikeResult, Playlist, SearchResult, Song } from '../api/models'
import { settingsPatchSchema } from '../settings-schema'
import type { Settings } from '../settings'
import { PLAYLIST_SORTS, SEARCH_KEYWORDS_MAX } from './models'
import type {
  DownloadsPage,
  DownloadsSummary,
  MediaCacheInfo,
  OfflineAvailability,
  OfflineState,
} from './offline'
import type { ShortcutsState } from '../global-shortcuts'
import { historyChannels } from './history-schemas'
import { channel, none, type ChannelSpec } from './channel-spec'
import { scrobbleChannels } from './scrobble-schemas'
import { discordLrclibChannels } from './discord-lrclib-schemas'
import type { MusicFoldersState } from './music-folders'
import type {
  AlbumDetail,
  AppInfo,
  CollectionAddResult,
  CollectionFile,
  CollectionPlaylist,
  CollectionSummary,
  AuthState,
  Capabilities,
  LikedSongs,
  DataSourceInfo,
  InvokeChannel,
  LyricLine,
  PhoneAccess,
  PlaylistHead,
  PlaylistRows,
  WindowMode,
  QrEvent,
  SourceList,
  UpdateState,
} from './models'

/**
 * The argument schema of every invoke channel in `./contract`, parsed by main's router. Main only: the
 * preload and the renderer never load zod for the contract.
 */

export type { ChannelSpec }
const limitArgs = (max: number) =>
  z
    .object({ limit: z.number().int().min(1).max(max).optional() })
    .strict()
    .optional()
const byId = z.object({ id: ipcIdSchema }).strict()

export const playerStateSchema = z
  .object({
    playing: z.boolean(),
    song: z
      .object({
        id: ipcIdSchema,
        name: z.string().max(500),
        artists: z.string().max(1000),
        liked: z.boolean(),
      })
      .strict()
      .nullable(),
    /** The sleep timer, when set: what it waits for and the minutes left (null: not known yet). */
    sleep: z
      .object({
        kind: z.enum(['minutes', 'song', 'album', 'queue']),
        leftMinutes: z.number().int().min(0).max(1_000_000).nullable(),
      })
      .strict()
      .optional(),
    /**
     * Where the song was when the player clock last jumped or changed rate (not on every tick): main moves
     * it on itself for the taskbar progress.
     */
    progress: z
      .object({
        positionMs: z.number().min(0).max(1e9),
        durationMs: z.number().min(0).max(1e9),
        speed: z.number().min(0.25).max(4),
      })
      .strict()
      .optional(),
  })
  .strict()

/** What the player saves (`PlayerSession` in `./contract`). */
export const playerSessionSchema = z
  .object({
    version: z.literal(1),
    queue: z.unknown(),
    positionMs: z.number().min(0),
    volume: z.number().min(0).max(1),
    muted: z.boolean(),
  })
  .strict()

/** Most songs in one of the user's playlists, and most playlists per data source. */
export const COLLECTION_MAX_SONGS = 10_000
export const COLLECTION_MAX_PLAYLISTS = 500
/** Largest playlist file that may be imported (its text). */
export const COLLECTION_MAX_IMPORT_CHARS = 8 * 1024 * 1024

const label = (max: number) => z.string().max(max)
export { collectionSongSchema }
const collectionId = z.string().min(1).max(64)
const playlistName = z.string().trim().min(1).max(100)
/** Most songs one `downloads:add` takes (Download on a playlist sends all of its songs at once). */
export const DOWNLOADS_MAX_ADD = 20_000
const collectionSongs = z.array(collectionSongSchema).min(1).max(COLLECTION_MAX_SONGS)
const collectionFormat = z.enum(['m3u8', 'json'])
/** Songs sent to a playlist in the account at once (the id list travels in one query string). */
const accountSongIds = z.array(ipcIdSchema).min(1).max(1000)

export const invokeChannels = {
  'app:info': channel<AppInfo>().args(none),

  /** Puts text on the system clipboard (a song's link): the renderer has no clipboard permission. */
  'app:copy-text': channel<void>().args(z.object({ text: z.string().min(1).max(8192) }).strict()),

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
  'catalog:playlist': channel<PlaylistHead>().args(byId),
  'catalog:playlist-rows': channel<PlaylistRows>().args(
    z
      .object({
        id: ipcIdSchema,
        offset: z.number().int().min(0).max(1_000_000),
        limit: z.number().int().min(1).max(2000),
        /** Only the songs whose name, artists or album contain these words. */
        query: z.string().trim().max(200).optional(),
        /** The rows in this order instead of the playlist's (after the search, if any). */
        sort: z
          .object({ by: z.enum(PLAYLIST_SORTS), descending: z.boolean().optional() })
          .strict()
          .optional(),
      })
      .strict(),
  ),
  'catalog:recommend-songs': channel<Song[]>().args(limitArgs(100)),
  'catalog:recommend-artists': channel<Artist[]>().args(limitArgs(100)),
  'catalog:artist': channel<Playlist>().args(byId),
  'catalog:search': channel<SearchResult>().args(
    z
      .object({
        keywords: z.string().trim().min(1).max(SEARCH_KEYWORDS_MAX),
        limit: z.number().int().min(1).max(100).optional(),
      })
      .strict(),
  ),
  'catalog:like': channel<LikeResult>().args(
    z
      .object({
        id: ipcIdSchema,
        like: z.boolean(),
        /** The song's data source when it is not the active one (a queued song of another source). */
        sourceId: z.string().min(1).max(IPC_ID_MAX).optional(),
      })
      .strict(),
  ),

  'player:resolve': channel<Song>().args(
    z
      .object({
        id: ipcIdSchema,
        br: z.number().int().min(1).max(100_000_000).optional(),
        /** The song's own data source, when it is not the active one (a download): served from disk. */
        sourceId: z.string().min(1).max(IPC_ID_MAX).optional(),
      })
      .strict(),
  ),
  'player:report-state': channel<void>().args(playerStateSchema),
  'player:save-session': channel<void>().args(playerSessionSchema),
  'player:load-session': channel<z.infer<typeof playerSessionSchema> | null>().args(none),

  'auth:status': channel<AuthState>().args(none),
  'auth:start-qr': channel<void>().args(none),
  'auth:cancel-qr': channel<void>().args(none),
  /** The last `auth:qr` event of the running (or last) QR login, for a login window that opens late. */
  'auth:qr-state': channel<QrEvent | null>().args(none),
  /** Opens the running QR login's page in the default browser (a data source on this computer). */
  'auth:open-qr-page': channel<void>().args(none),
  'auth:logout': channel<void>().args(none),

  'sources:list': channel<SourceList>().args(none),
  'sources:add': channel<DataSourceInfo>().args(
    z
      .object({ url: z.string().trim().min(1).max(2048), name: z.string().trim().min(1).max(100).optional() })
      .strict(),
  ),
  'sources:remove': channel<void>().args(z.object({ id: z.string().min(1).max(100) }).strict()),
  'sources:activate': channel<void>().args(z.object({ id: z.string().min(1).max(100) }).strict()),
  /** The one more local host an added source may point media and covers at (`''` clears it). */
  'sources:set-local-host': channel<DataSourceInfo>().args(
    z.object({ id: z.string().min(1).max(100), host: z.string().trim().max(255) }).strict(),
  ),
  /** Renames an added data source (the name shown in Settings and wherever the source is named). */
  'sources:rename': channel<DataSourceInfo>().args(
    z.object({ id: z.string().min(1).max(100), name: z.string().trim().min(1).max(100) }).strict(),
  ),

  /**
   * Where a phone can reach the built-in data source; the passphrase it asks for only with `show` (the
   * renderer asks so only when the person clicks "Show").
   */
  'sources:phone-access': channel<PhoneAccess>().args(
    z.object({ show: z.boolean().optional() }).strict().optional(),
  ),
  /**
   * A new owner passphrase, after a yes in a dialog main shows: remembered phones are forgotten and every
   * other device signed out (the built-in source restarts with it). False when the person said no.
   */
  'sources:renew-phone-passphrase': channel<boolean>().args(none),

  'settings:get': channel<Settings>().args(none),
  'settings:update': channel<Settings>().args(settingsPatchSchema),

  'lyrics:report-line': channel<void>().args(
    z
      .object({
        current: z.string().max(500),
        translation: z.string().max(500).optional(),
        next: z.string().max(500),
      })
      .strict(),
  ),
  /** The last reported line, for a desktop lyrics window that opens late. */
  'lyrics:current-line': channel<LyricLine | null>().args(none),
  'window:set-mini': channel<WindowMode>().args(z.object({ mini: z.boolean() }).strict()),
  'notify:track-changed': channel<void>().args(
    z
      .object({
        id: ipcIdSchema,
        name: z.string().max(500),
        artists: z.string().max(1000),
        album: z.string().max(500).optional(),
        cover: z
          .url({ protocol: /^https?$/ })
          .max(2048)
          .optional(),
        coverImage: z
          .string()
          .max(400_000)
          .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/)
          .optional(),
      })
      .strict(),
  ),

  'collection:list': channel<CollectionSummary[]>().args(none),
  'collection:get': channel<CollectionPlaylist>().args(z.object({ id: collectionId }).strict()),
  'collection:create': channel<CollectionSummary>().args(
    z.object({ name: playlistName, songs: collectionSongs.optional() }).strict(),
  ),
  'collection:rename': channel<CollectionSummary>().args(
    z.object({ id: collectionId, name: playlistName }).strict(),
  ),
  'collection:delete': channel<void>().args(z.object({ id: collectionId }).strict()),
  'collection:add': channel<CollectionAddResult>().args(
    z.object({ id: collectionId, songs: collectionSongs }).strict(),
  ),
  'collection:remove': channel<CollectionPlaylist>().args(
    z.object({ id: collectionId, songIds: z.array(songRefSchema).min(1).max(COLLECTION_MAX_SONGS) }).strict(),
  ),
  /** Moves the song at `from` to `to` (indices in the playlist as it is now). */
  'collection:move': channel<CollectionPlaylist>().args(
    z
      .object({
        id: collectionId,
        from: z.number().int().min(0).max(COLLECTION_MAX_SONGS),
        to: z.number().int().min(0).max(COLLECTION_MAX_SONGS),
      })
      .strict(),
  ),
  'collection:export': channel<CollectionFile>().args(
    z.object({ id: collectionId, format: collectionFormat }).strict(),
  ),
  /** A playlist file's text; without `format`, guessed from the text. Creates a new playlist. */
  'collection:import': channel<CollectionSummary>().args(
    z
      .object({
        text: z.string().min(1).max(COLLECTION_MAX_IMPORT_CHARS),
        format: collectionFormat.optional(),
        name: label(200).optional(),
      })
      .strict(),
  ),

  'capabilities:get': channel<Capabilities>().args(none),
  /** An album from the data source's album endpoint (`unavailable` where it has none). */
  'albums:detail': channel<AlbumDetail>().args(byId),
  'albums:saved': channel<Album[]>().args(none),
  'albums:save': channel<void>().args(z.object({ id: ipcIdSchema, like: z.boolean() }).strict()),
  'likes:state': channel<LikedSongs>().args(none),
  /** Reads the liked-songs playlist again (window focus, a refresh): a like made elsewhere shows. */
  'likes:refresh': channel<LikedSongs>().args(none),
  /** Asks the data source whether one song is liked (`unavailable` where it cannot say). */
  'likes:song': channel<{ id: Id; liked: boolean }>().args(byId),
  /** A playlist made in the user's account on the data source (`unavailable` where it cannot). */
  'account:create-playlist': channel<Playlist>().args(
    z.object({ name: playlistName, songIds: accountSongIds.optional() }).strict(),
  ),
  'account:add-songs': channel<void>().args(z.object({ id: ipcIdSchema, songIds: accountSongIds }).strict()),
  'account:remove-songs': channel<void>().args(
    z.object({ id: ipcIdSchema, songIds: accountSongIds }).strict(),
  ),
  'account:subscribe': channel<void>().args(z.object({ id: ipcIdSchema, subscribe: z.boolean() }).strict()),
  /**
   * Whether the data source can change the songs of the account's playlist `id` (asked with nothing to
   * change): the answer is remembered as the source's `playlist-songs` capability.
   */
  'account:can-change-songs': channel<boolean>().args(byId),
  /** The installed app's update state (nothing to do where the app cannot update itself). */
  'updates:state': channel<UpdateState>().args(none),
  /** "Restart to update": quits and installs the downloaded update; false when none is ready. */
  'updates:install': channel<boolean>().args(none),
  /** "Check now": asks the update feed at once; the state after it (unchanged where the app cannot update). */
  'updates:check': channel<UpdateState>().args(none),
  /**
   * Makes songs (one, an album, a playlist) available offline; songs already there are not added twice.
   * `cover`: the album's or playlist's own header cover, kept on disk with its songs.
   */
  'downloads:add': channel<DownloadsSummary>().args(
    z
      .object({
        songs: z.array(collectionSongSchema).min(1).max(DOWNLOADS_MAX_ADD),
        cover: z
          .url({ protocol: /^https?$/ })
          .max(2048)
          .optional(),
      })
      .strict(),
  ),
  'downloads:list': channel<DownloadsPage>().args(
    z
      .object({
        offset: z.number().int().min(0).max(10_000_000),
        limit: z.number().int().min(1).max(2000),
        /** Only finished downloads (what plays offline), or everything in the queue. */
        done: z.boolean().optional(),
      })
      .strict(),
  ),
  'downloads:summary': channel<DownloadsSummary>().args(none),
  /** Removes downloads: their files become ordinary cached songs, evicted by the cap like any other. */
  'downloads:remove': channel<DownloadsSummary>().args(
    z
      .object({
        ids: z.array(ipcIdSchema).min(1).max(DOWNLOADS_MAX_ADD),
        /** Their data source (default: the active one). */
        sourceId: z.string().min(1).max(IPC_ID_MAX).optional(),
      })
      .strict(),
  ),
  'downloads:pause': channel<DownloadsSummary>().args(none),
  'downloads:resume': channel<DownloadsSummary>().args(none),
  /** Failed downloads are queued again. */
  'downloads:retry': channel<DownloadsSummary>().args(none),
  'media:cache-info': channel<MediaCacheInfo>().args(none),
  /** Empties the cache of played songs; downloads stay. */
  'media:clear-cache': channel<MediaCacheInfo>().args(none),
  'media:available': channel<OfflineAvailability>().args(none),
  'offline:state': channel<OfflineState>().args(none),
  /** Ask the data source at once whether it is back (the network came back, "Try again"). */
  'offline:check': channel<OfflineState>().args(none),
  ...historyChannels,
  /** Which global shortcuts are registered, held by another application (`taken`), or not set. */
  'shortcuts:state': channel<ShortcutsState>().args(none),
  /** Registers the taken ones again (the other application may have let them go). */
  'shortcuts:retry': channel<ShortcutsState>().args(none),
  // Scrobbling (ListenBrainz, Last.fm): no token or session key ever comes back to the renderer.
  ...scrobbleChannels,
  ...discordLrclibChannels,
  /** Settings → Music on this computer: the chosen folders, what was imported from each, the import now. */
  'library:folders': channel<MusicFoldersState>().args(none),
  /** Opens the system folder picker (in main); a folder chosen is added and imported. */
  'library:add-folder': channel<MusicFoldersState>().args(none),
  'library:remove-folder': channel<MusicFoldersState>().args(
    z.object({ path: z.string().min(1).max(4096) }).strict(),
  ),
  'library:cancel-import': channel<MusicFoldersState>().args(none),
  /** "Show the demo catalogue" (Settings → Music on this computer): on while no folder is chosen, unless set. */
  'library:demo': channel<{ shown: boolean }>().args(none),
  /** Starts the built-in data source again with its demo catalogue, or with it taken out. */
  'library:set-demo': channel<{ shown: boolean }>().args(z.object({ shown: z.boolean() }).strict()),
} satisfies Record<InvokeChannel, ChannelSpec<z.ZodType, unknown>>
