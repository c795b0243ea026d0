import { z } from 'zod'
import type { Id, LikeResult, Playlist } from '@shared/api/models'
import type { LikedSongs } from '@shared/ipc/contract'
import { songLiked } from '../api/extensions'
import { JsonText } from '../api/sliced-json'
import type { CapabilityMemory } from '../capabilities'
import type { ActiveCall } from '../sources/active'
import type { EventHub } from '../events'
import type { Logger } from '../log'
import type { KeyValueStore } from '../ports'

/**
 * The songs the signed-in user likes, from the one place every data source keeps them: the liked-songs
 * playlist. Loaded at sign-in, kept in step with likes made here (the like result), read again on
 * `refresh()` (window focus) so a like made on the phone shows; single songs can be asked of
 * `GET /song/like` where the source has it. `meta.isFavorite` in lists only knows what the list's
 * answer knew; this is what the hearts show.
 */

/** Where the liked playlist's id (from a like result) is remembered per source. */
export const likedPlaylistKey = (sourceId: string) => `likes:playlist:${sourceId}`

/** Most songs read from the liked playlist (the reference server's cap on a detail). */
const MOST_LIKED = 100_000
const BUDGET_MS = 6

/**
 * The liked playlist among the user's own: one the server marks (`meta.kind`), else the first with a
 * real id created by the user (NeteaseMusicAdapter lists virtual `key_…` playlists before it).
 */
export function findLikedPlaylist(playlists: Playlist[], uid: Id): Id | undefined {
  const marked = playlists.find((p) => p.meta?.kind === 'liked')
  if (marked) return marked.id
  const real = (id: Id) => typeof id === 'number' || /^\d+$/.test(id)
  return playlists.find((p) => real(p.id) && (!p.creator || String(p.creator.id) === String(uid)))?.id
}

const detailSongs = z.looseObject({ songs: z.unknown() })

/** The ids of a detail's songs (kept as JSON text or parsed), a slice at a time. */
async function idsOf(songs: unknown): Promise<Set<string>> {
  const ids = new Set<string>()
  if (!Array.isArray(songs)) return ids
  let mark = performance.now()
  for (let i = 0; i < songs.length; i++) {
    let song: unknown = songs[i]
    if (song instanceof JsonText) {
      try {
        song = JSON.parse(song.text)
      } catch {
        continue
      }
    }
    const id = (song as { id?: unknown } | null)?.id
    if (typeof id === 'string' || typeof id === 'number') ids.add(String(id))
    if (i % 256 === 255 && performance.now() - mark > BUDGET_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve))
      mark = performance.now()
    }
  }
  return ids
}

export interface LikedSongsDeps {
  call: ActiveCall
  capabilities: CapabilityMemory
  store: KeyValueStore
  events: EventHub
  log: Logger
  userId: () => Id | undefined
  activeSourceId: () => string
}

export function createLikedSongs(deps: LikedSongsDeps) {
  let sourceId = deps.activeSourceId()
  let ids: Set<string> | null = null
  let playlistId: Id | undefined
  let loading: { key: string; done: Promise<LikedSongs> } | undefined

  const state = (): LikedSongs => ({
    sourceId,
    ids: ids ? [...ids] : null,
    ...(playlistId !== undefined ? { playlistId } : {}),
  })
  const announce = () => deps.events.emit('likes:changed', state())

  function clear() {
    loading = undefined
    const had = ids !== null
    sourceId = deps.activeSourceId()
    ids = null
    playlistId = undefined
    if (had) announce()
  }

  async function load(source: string, uid: Id): Promise<LikedSongs> {
    const found = await deps.call(async (api, sid) => {
      let pid = deps.store.get<Id>(likedPlaylistKey(sid))
      if (pid === undefined) {
        pid = findLikedPlaylist(await api.userPlaylists(uid, { limit: 50 }), uid)
      }
      if (pid === undefined) return undefined
      const detail = await api.read({
        path: '/playlist/detail',
        query: { id: pid, offset: 0, limit: MOST_LIKED },
        schema: detailSongs,
        keepText: ['data', 'songs'],
      })
      return { pid, ids: await idsOf(detail.songs) }
    })
    // Only if nobody signed out or switched sources meanwhile.
    if (source === deps.activeSourceId() && String(deps.userId()) === String(uid)) {
      sourceId = source
      ids = found?.ids ?? null
      playlistId = found?.pid
      announce()
    }
    return state()
  }

  function refresh(): Promise<LikedSongs> {
    const source = deps.activeSourceId()
    const uid = deps.userId()
    if (uid === undefined) {
      clear()
      return Promise.resolve(state())
    }
    const key = `${source}\n${String(uid)}`
    if (loading?.key === key) return loading.done
    const done = load(source, uid).finally(() => {
      if (loading?.done === done) loading = undefined
    })
    loading = { key, done }
    return done.catch((error: unknown) => {
      deps.log.warn('liked songs not read', { error: String(error) })
      return state()
    })
  }

  return {
    state,
    refresh,
    clear,
    /** A like made here: the set follows the result, and the liked playlist's id is remembered. */
    liked(result: LikeResult) {
      const source = deps.activeSourceId()
      if (result.playlist !== undefined) {
        deps.store.set(likedPlaylistKey(source), result.playlist)
        playlistId = result.playlist
      }
      if (ids && source === sourceId) {
        if (result.like) ids.add(String(result.id))
        else ids.delete(String(result.id))
      }
      announce()
    },
    /** A song started playing: where the source can say, its state is asked (and the set corrected). */
    playing(id: Id) {
      if (deps.userId() === undefined || !deps.capabilities.has(deps.activeSourceId(), 'song-like-state'))
        return
      this.song(id).catch(() => undefined)
    },
    /** Whether one song is liked, asked of `GET /song/like` (`unavailable` where the source has none). */
    async song(id: Id): Promise<{ id: Id; liked: boolean }> {
      const liked = await deps.call((api, sid) =>
        deps.capabilities.use(sid, 'song-like-state', () => songLiked(api, id)),
      )
      if (ids && ids.has(String(id)) !== liked) {
        if (liked) ids.add(String(id))
        else ids.delete(String(id))
        announce()
      }
      return { id, liked }
    },
  }
}

export type LikedSongsService = ReturnType<typeof createLikedSongs>
