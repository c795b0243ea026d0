import { z } from 'zod'
import { collectionSongSchema } from '@shared/ipc/schemas'
import type { CollectionPlaylist, CollectionSong } from '@shared/ipc/contract'
import type { KeyValueStore } from '../ports'

/** Where the user's own playlists are kept in the settings store: one list, songs of any data source. */
export const COLLECTIONS_KEY = 'collections'
/** Where older versions kept each data source's own playlists; folded into `collections` once. */
export const legacyCollectionKey = (sourceId: string) => `collection:${sourceId}`

/** A data source as the playlists need it: its name (to tell two playlists apart) and address (M3U8). */
export interface CollectionSource {
  id: string
  name: string
  url?: string
}

export type StoredPlaylist = Pick<CollectionPlaylist, 'id' | 'name' | 'createdAt' | 'updatedAt' | 'songs'>

const storedSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(100),
  createdAt: z.number(),
  updatedAt: z.number(),
  songs: z.array(z.unknown()),
})

/**
 * What the store holds, with anything unreadable left out (a hand-edited file never blanks the list). A
 * song that names no data source gets `sourceId` (the source it was kept for).
 */
export function readStored(raw: unknown, sourceId?: string): StoredPlaylist[] {
  if (!Array.isArray(raw)) return []
  const out: StoredPlaylist[] = []
  for (const value of raw) {
    const parsed = storedSchema.safeParse(value)
    if (!parsed.success) continue
    const songs = parsed.data.songs.flatMap((song): CollectionSong[] => {
      const ok = collectionSongSchema.safeParse(song)
      if (!ok.success) return []
      return [ok.data.sourceId || !sourceId ? ok.data : { ...ok.data, sourceId }]
    })
    out.push({ ...parsed.data, songs })
  }
  return out
}

/** A song's identity in a playlist: the same id at two data sources is two songs. */
export const songKey = (song: { id: string | number; sourceId?: string }, fallbackSource: string) =>
  `${song.sourceId ?? fallbackSource}\u0000${String(song.id)}`

/**
 * The playlists older versions kept per data source, folded into one list the first time it is read:
 * the active source's first, then the others in the order Settings lists them; each song is stamped with
 * the source it was kept for. A name another source's playlist already has is told apart by the source's
 * name ("Evening (Home server)"); a playlist id met twice gets a new one. The old keys are deleted once
 * the folded list is saved. Returns the folded list, or undefined when there was nothing to fold.
 */
export function foldLegacy(
  store: KeyValueStore,
  activeId: string,
  sources: readonly CollectionSource[],
  newId: () => string,
): StoredPlaylist[] | undefined {
  const order = [activeId, ...sources.map((s) => s.id).filter((id) => id !== activeId)]
  const found = order.flatMap((sourceId) => {
    const raw = store.get<unknown>(legacyCollectionKey(sourceId))
    return raw === undefined ? [] : [{ sourceId, playlists: readStored(raw, sourceId) }]
  })
  if (!found.length) return undefined
  const out: StoredPlaylist[] = []
  const names = new Set<string>()
  const ids = new Set<string>()
  for (const { sourceId, playlists } of found) {
    const sourceName = sources.find((s) => s.id === sourceId)?.name ?? sourceId
    for (const playlist of playlists) {
      let name = playlist.name
      if (names.has(name.trim().toLowerCase())) name = unusedName(`${name} (${sourceName})`.slice(0, 90), out)
      const id = ids.has(playlist.id) ? newId() : playlist.id
      names.add(name.trim().toLowerCase())
      ids.add(id)
      out.push({ ...playlist, id, name })
    }
  }
  store.set(COLLECTIONS_KEY, out)
  for (const { sourceId } of found) store.delete(legacyCollectionKey(sourceId))
  return out
}

/**
 * A playlist's name told apart from the user's playlists of the same name: "Evening" becomes
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
