import { z } from 'zod'
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

/** Where a data source's own playlists are kept in the settings store. */
export const collectionKey = (sourceId: string) => `collection:${sourceId}`

const storedSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(100),
  createdAt: z.number(),
  updatedAt: z.number(),
  songs: z.array(z.unknown()),
})

/** How many M3U8 songs are looked up at the data source at once while importing. */
const IMPORT_LOOKUPS_AT_ONCE = 4

export interface CollectionDeps {
  store: KeyValueStore
  events: EventHub
  log: Logger
  /** The data source whose playlists are read and written. */
  activeSourceId: () => string
  /** Its address (for song links in exported M3U8 files). */
  activeSourceUrl: () => string | undefined
  /** Looks a song up at the active data source (M3U8 import); undefined when it cannot. */
  lookUpSong: (id: string) => Promise<unknown>
  now?: () => number
  newId?: () => string
}

const gone = () => new CadenceError({ kind: 'invalid-argument', message: 'This playlist no longer exists' })

/**
 * The user's own playlists, kept per data source (the API cannot write playlists): create, rename,
 * delete, add, remove, reorder, export and import. Every change is saved at once and announced with
 * `collection:changed`.
 */
export function createCollectionService(deps: CollectionDeps) {
  const now = deps.now ?? Date.now
  const newId = deps.newId ?? (() => globalThis.crypto.randomUUID())

  /**
   * Each source's playlists as last read or written: the store is read (and every song checked) once per
   * source, not on every call (electron-store parses its whole file on each `get`).
   */
  const held = new Map<string, CollectionPlaylist[]>()

  /** The active source's playlists (a copy of the list; the playlists themselves are never edited in place). */
  function read(): CollectionPlaylist[] {
    const source = deps.activeSourceId()
    let playlists = held.get(source)
    if (!playlists) {
      playlists = load(deps.store.get<unknown>(collectionKey(source)))
      held.set(source, playlists)
    }
    return [...playlists]
  }
  /** What the store holds, with anything unreadable left out (a hand-edited file never blanks the list). */
  function load(raw: unknown): CollectionPlaylist[] {
    if (!Array.isArray(raw)) return []
    const out: CollectionPlaylist[] = []
    for (const value of raw) {
      const parsed = storedSchema.safeParse(value)
      if (!parsed.success) continue
      const songs = parsed.data.songs.flatMap((song) => {
        const ok = collectionSongSchema.safeParse(song)
        return ok.success ? [ok.data] : []
      })
      out.push(withSummary({ ...parsed.data, songs }))
    }
    return out
  }
  function write(playlists: CollectionPlaylist[]) {
    held.set(deps.activeSourceId(), playlists)
    deps.store.set(
      collectionKey(deps.activeSourceId()),
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
      songs: unique(songs).slice(0, COLLECTION_MAX_SONGS),
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
        const have = new Set(p.songs.map((s) => String(s.id)))
        const room = COLLECTION_MAX_SONGS - p.songs.length
        const fresh = unique(songs)
          .filter((s) => !have.has(String(s.id)))
          .slice(0, Math.max(0, room))
        added = fresh.length
        return { ...p, songs: [...p.songs, ...fresh] }
      })
      return { added, skipped: songs.length - added, playlist: summary(next) }
    },
    remove(id: string, songIds: Array<string | number>) {
      const drop = new Set(songIds.map(String))
      return change(id, (p) => ({ ...p, songs: p.songs.filter((s) => !drop.has(String(s.id))) }))
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
            text: toM3u8(playlist, deps.activeSourceUrl()),
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
      const songs = [...parsed.songs, ...looked]
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
    /** A data source was removed: its playlists go with it. */
    forget(sourceId: string) {
      held.delete(sourceId)
      deps.store.delete(collectionKey(sourceId))
    },
    /** Tells the renderer the list again (another data source became active). */
    announce() {
      deps.events.emit('collection:changed', read().map(summary))
    },
  }
}

export type CollectionService = ReturnType<typeof createCollectionService>

function unique(songs: CollectionSong[]): CollectionSong[] {
  const seen = new Set<string>()
  return songs.filter((s) => !seen.has(String(s.id)) && Boolean(seen.add(String(s.id))))
}

function withSummary(
  p: Omit<CollectionPlaylist, keyof CollectionSummary> &
    Pick<CollectionSummary, 'id' | 'name' | 'createdAt' | 'updatedAt'>,
): CollectionPlaylist {
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

/**
 * An imported playlist's name, told apart from the user's playlists of the same name: "Evening" becomes
 * "Evening (2)" (then 3, …) when "Evening" is taken, as a file manager names a copy.
 */
export function unusedName(name: string, playlists: ReadonlyArray<{ name: string }>): string {
  const taken = new Set(playlists.map((p) => p.name.trim().toLowerCase()))
  if (!taken.has(name.trim().toLowerCase())) return name
  for (let n = 2; ; n++) {
    const candidate = `${name} (${n})`
    if (!taken.has(candidate.toLowerCase())) return candidate
  }
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
