import { CadenceError } from '@shared/errors'
import { COLLECTION_MAX_PLAYLISTS, COLLECTION_MAX_SONGS, collectionSongSchema } from '@shared/ipc/schemas'
import type {
  CollectionAddResult,
  CollectionFile,
  CollectionFormat,
  CollectionPlaylist,
  CollectionSong,
  CollectionSummary,
} from '@shared/ipc/contract'
import type { EventHub } from '../events'
import type { Logger } from '../log'
import type { KeyValueStore } from '../ports'
import { parsePlaylistFile, songFromEntry, toJson, toM3u8 } from './formats'
import {
  COLLECTIONS_KEY,
  foldLegacy,
  legacyCollectionKey,
  readStored,
  songKey,
  unusedName,
  type CollectionSource,
  type StoredPlaylist,
} from './stored'

export { unusedName }

/** How many M3U8 songs are looked up at the data source at once while importing. */
const IMPORT_LOOKUPS_AT_ONCE = 4

export interface CollectionDeps {
  store: KeyValueStore
  events: EventHub
  log: Logger
  /** The active data source: a song added or imported without a source of its own is its. */
  activeSourceId: () => string
  /** The data sources Settings lists (names for the one-time fold, addresses for M3U8 song links). */
  sources: () => readonly CollectionSource[]
  /** Looks a song up at the active data source (M3U8 import); undefined when it cannot. */
  lookUpSong: (id: string) => Promise<unknown>
  now?: () => number
  newId?: () => string
}

const gone = () => new CadenceError({ kind: 'invalid-argument', message: 'This playlist no longer exists' })

/** A song to remove: its id, and its data source when the playlist mixes sources. */
export type SongRef = string | number | { id: string | number; sourceId?: string }

/**
 * The user's own playlists, one list kept by main whichever data source is active (the API cannot write
 * playlists), each song stamped with its data source: create, rename, delete, add, remove, reorder,
 * export and import. Every change is saved at once and announced with `collection:changed`.
 */
export function createCollectionService(deps: CollectionDeps) {
  const now = deps.now ?? Date.now
  const newId = deps.newId ?? (() => globalThis.crypto.randomUUID())

  /** The playlists as last read or written: the store is read (and every song checked) once. */
  let held: CollectionPlaylist[] | undefined

  /** The playlists (a copy of the list; the playlists themselves are never edited in place). */
  function read(): CollectionPlaylist[] {
    if (!held) {
      const raw = deps.store.get<unknown>(COLLECTIONS_KEY)
      const stored =
        raw !== undefined
          ? readStored(raw)
          : (foldLegacy(deps.store, deps.activeSourceId(), deps.sources(), newId) ?? [])
      held = stored.map(withSummary)
    }
    return [...held]
  }
  function write(playlists: CollectionPlaylist[]) {
    held = playlists
    deps.store.set(
      COLLECTIONS_KEY,
      playlists.map(({ id, name, createdAt, updatedAt, songs }) => ({
        id,
        name,
        createdAt,
        updatedAt,
        songs,
      })),
    )
    deps.events.emit('collection:changed', playlists.map(summary))
  }
  /** Songs as kept: each with its data source (the active one for a song that names none). */
  function sourced(songs: CollectionSong[]): CollectionSong[] {
    const active = deps.activeSourceId()
    return unique(songs.map((s) => (s.sourceId ? s : { ...s, sourceId: active })))
  }
  function find(playlists: CollectionPlaylist[], id: string) {
    const index = playlists.findIndex((p) => p.id === id)
    if (index < 0) throw gone()
    return index
  }
  /** Applies `change` to one playlist, saves, and returns it. */
  function change(id: string, edit: (playlist: CollectionPlaylist) => CollectionPlaylist) {
    const playlists = read()
    const index = find(playlists, id)
    const next = withSummary({ ...edit(playlists[index]), updatedAt: now() })
    playlists[index] = next
    write(playlists)
    return next
  }
  function create(name: string, songs: CollectionSong[] = []): CollectionPlaylist {
    const playlists = read()
    if (playlists.length >= COLLECTION_MAX_PLAYLISTS) {
      throw new CadenceError({
        kind: 'invalid-argument',
        message: `You already have ${COLLECTION_MAX_PLAYLISTS} playlists; delete one to make another`,
      })
    }
    const at = now()
    const playlist = withSummary({
      id: newId(),
      name: name.trim().slice(0, 100) || 'Playlist',
      createdAt: at,
      updatedAt: at,
      songs: sourced(songs).slice(0, COLLECTION_MAX_SONGS),
    })
    write([...playlists, playlist])
    deps.log.info('playlist created', { songs: playlist.size })
    return playlist
  }

  return {
    list: (): CollectionSummary[] => read().map(summary),
    get(id: string): CollectionPlaylist {
      const playlists = read()
      return playlists[find(playlists, id)]
    },
    create: (name: string, songs?: CollectionSong[]) => summary(create(name, songs)),
    rename: (id: string, name: string) => summary(change(id, (p) => ({ ...p, name: name.trim() }))),
    delete(id: string) {
      const playlists = read()
      playlists.splice(find(playlists, id), 1)
      write(playlists)
    },
    add(id: string, songs: CollectionSong[]): CollectionAddResult {
      let added = 0
      const next = change(id, (p) => {
        const have = new Set(p.songs.map((s) => songKey(s, '')))
        const room = COLLECTION_MAX_SONGS - p.songs.length
        const fresh = sourced(songs)
          .filter((s) => !have.has(songKey(s, '')))
          .slice(0, Math.max(0, room))
        added = fresh.length
        return { ...p, songs: [...p.songs, ...fresh] }
      })
      return { added, skipped: songs.length - added, playlist: summary(next) }
    },
    /** Removes songs: one named with its source is that source's; a bare id is that song of any source. */
    remove(id: string, songs: SongRef[]) {
      const ids = new Set<string>()
      const keyed = new Set<string>()
      for (const ref of songs) {
        if (typeof ref !== 'object') ids.add(String(ref))
        else if (ref.sourceId === undefined) ids.add(String(ref.id))
        else keyed.add(songKey(ref, ''))
      }
      const drop = (s: CollectionSong) => ids.has(String(s.id)) || keyed.has(songKey(s, ''))
      return change(id, (p) => ({ ...p, songs: p.songs.filter((s) => !drop(s)) }))
    },
    move(id: string, from: number, to: number) {
      return change(id, (p) => {
        if (from >= p.songs.length || to >= p.songs.length) {
          throw new CadenceError({ kind: 'invalid-argument', message: 'There is no song at that place' })
        }
        const songs = [...p.songs]
        const [song] = songs.splice(from, 1)
        songs.splice(to, 0, song)
        return { ...p, songs }
      })
    },
    export(id: string, format: CollectionFormat): CollectionFile {
      const playlists = read()
      const playlist = playlists[find(playlists, id)]
      const base = fileBaseName(playlist.name)
      return format === 'json'
        ? { fileName: `${base}.json`, mime: 'application/json', text: toJson(playlist) }
        : {
            fileName: `${base}.m3u8`,
            mime: 'audio/x-mpegurl',
            text: toM3u8(
              playlist,
              (sourceId) => deps.sources().find((s) => s.id === sourceId)?.url || undefined,
            ),
          }
    },
    async import(text: string, format?: CollectionFormat, fileName?: string): Promise<CollectionSummary> {
      let parsed: ReturnType<typeof parsePlaylistFile>
      try {
        parsed = parsePlaylistFile(text, format)
      } catch (cause) {
        throw new CadenceError({ kind: 'invalid-argument', message: (cause as Error).message })
      }
      const looked = await mapLimited(parsed.entries, IMPORT_LOOKUPS_AT_ONCE, async (entry) => {
        const found = collectionSongSchema.safeParse(await deps.lookUpSong(entry.id).catch(() => undefined))
        return found.success ? found.data : songFromEntry(entry)
      })
      // Into the active source, as an M3U8 names songs by id alone; a JSON song keeps a source still listed.
      const known = new Set(deps.sources().map((s) => s.id))
      const songs = [...parsed.songs, ...looked].map(({ sourceId, ...song }) =>
        sourceId && known.has(sourceId) ? { ...song, sourceId } : song,
      )
      if (!songs.length) {
        throw new CadenceError({
          kind: 'invalid-argument',
          message: 'This file names no song of a data source, so there is nothing to import',
        })
      }
      const name =
        parsed.name?.trim() || fileName?.replace(/\.(m3u8?|json)$/i, '').trim() || 'Imported playlist'
      return summary(create(unusedName(name.slice(0, 90), read()), songs))
    },
    /**
     * A data source was removed: its songs stay in the playlists (shown as of a removed source, skipped
     * when played); only a per-source list an older version kept is deleted.
     */
    forget(sourceId: string) {
      deps.store.delete(legacyCollectionKey(sourceId))
    },
    /** Tells the renderer the list again (another data source became active). */
    announce() {
      deps.events.emit('collection:changed', read().map(summary))
    },
  }
}

export type CollectionService = ReturnType<typeof createCollectionService>

/** Songs once each, by (source, id). */
function unique(songs: CollectionSong[]): CollectionSong[] {
  const seen = new Set<string>()
  return songs.filter((s) => !seen.has(songKey(s, '')) && Boolean(seen.add(songKey(s, ''))))
}

function withSummary(p: StoredPlaylist): CollectionPlaylist {
  return {
    ...p,
    size: p.songs.length,
    durationMs: p.songs.reduce((sum, s) => sum + (s.duration ?? 0), 0),
    cover: p.songs.find((s) => s.album?.cover)?.album?.cover,
  }
}

function summary(p: CollectionPlaylist): CollectionSummary {
  const { songs: _songs, ...rest } = p
  void _songs
  return rest
}

/** A file name from a playlist's name: no path separators or characters Windows refuses. */
function fileBaseName(name: string): string {
  const safe = name
    // eslint-disable-next-line no-control-regex
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return safe.slice(0, 80) || 'playlist'
}

async function mapLimited<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await run(items[i])
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return out
}
