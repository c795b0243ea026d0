import { defineStore } from 'pinia'
import { reactive, ref, shallowRef } from 'vue'
import type { Id, Song } from '@shared/api/models'
import type { LikedSongs } from '@shared/ipc/contract'
import { invoke, on } from '@renderer/services/cadence'
import { toCadenceError } from '@renderer/services/cadence-error'
import type { SourcedSong } from '@shared/player/media-url'
import { useAuthStore } from '@renderer/stores/auth'

/**
 * The ids of the songs in the user's liked-songs playlist, as main last read it (null while unknown).
 * Owned by the likes store; module-level so `isSongLiked` reads it (reactively) without a new argument.
 */
const likedIds = shallowRef<ReadonlySet<string> | null>(null)

/**
 * Whether `song` is liked, given the user's toggles (`overrides`, keyed by id as a string): a toggle in
 * flight, else the liked-songs playlist (the truth on every data source, likes made on the phone
 * included), else what the answer that brought the song said (`meta.isFavorite`). A plain function, not
 * a store action, so a long list can ask it for every row it renders at little cost.
 */
export function isSongLiked(
  overrides: ReadonlyMap<string, boolean>,
  song: Song,
  liked: ReadonlySet<string> | null = likedIds.value,
): boolean {
  const id = String(song.id)
  return overrides.get(id) ?? (liked ? liked.has(id) : (song.meta?.isFavorite ?? false))
}

/**
 * Liked songs as the user sees them: what the data source said (`meta.isFavorite`), overridden by the
 * user's toggles. A toggle shows at once and is rolled back if the data source refuses it.
 */
export const useLikesStore = defineStore('likes', () => {
  const overrides = reactive(new Map<string, boolean>())
  const pending = reactive(new Set<string>())
  /** The liked-songs playlist, as the last like result named it. */
  const playlistId = ref<Id>()
  /** Bumped after each accepted change, so views showing the liked playlist can reload. */
  const revision = ref(0)

  const auth = useAuthStore()
  const key = (id: Id) => String(id)
  /** The data source of a song of another source than the active one (a queued song): its like is its own. */
  const elsewhere = (song: Song): string | undefined => {
    const named = (song as SourcedSong).sourceId
    return named !== undefined && auth.sourceId !== undefined && named !== auth.sourceId ? named : undefined
  }
  const keyOf = (song: Song) => {
    const named = elsewhere(song)
    return named ? `${named}\n${song.id}` : key(song.id)
  }
  const isLiked = (song: Song) =>
    elsewhere(song)
      ? (overrides.get(keyOf(song)) ?? song.meta?.isFavorite ?? false)
      : isSongLiked(overrides, song)

  /** Main read the liked playlist (sign-in, a refresh, a like): it is the truth, toggles settled. */
  function apply(state: LikedSongs) {
    likedIds.value = state.ids ? new Set(state.ids) : null
    if (state.playlistId !== undefined) playlistId.value = state.playlistId
    for (const id of [...overrides.keys()]) if (!pending.has(id)) overrides.delete(id)
  }
  /** Reads the liked playlist again: a like made on the phone shows (on window focus). */
  async function refresh() {
    try {
      apply(await invoke('likes:refresh'))
    } catch {
      // Unreachable or signed out: the hearts keep what they knew.
    }
  }
  /** Asks the data source about one song where it can say (`GET /song/like`), e.g. the one playing. */
  async function check(song: Song) {
    if (elsewhere(song)) return
    try {
      const { liked } = await invoke('likes:song', { id: song.id })
      if (likedIds.value && likedIds.value.has(key(song.id)) !== liked) {
        const next = new Set(likedIds.value)
        if (liked) next.add(key(song.id))
        else next.delete(key(song.id))
        likedIds.value = next
      }
    } catch {
      // Not offered by this source, or unreachable: the liked playlist stays the answer.
    }
  }
  let started = false
  /** Called once by the app shell: the liked songs now, their changes, and a re-read on window focus. */
  function start() {
    if (started) return
    started = true
    on('likes:changed', apply)
    void invoke('likes:state').then(apply, () => undefined)
    window.addEventListener('focus', () => void refresh())
  }

  /** Resolves to the new state; throws (after rolling back) when refused. */
  async function setLiked(song: Song, like: boolean): Promise<boolean> {
    const k = keyOf(song)
    const named = elsewhere(song)
    const had = overrides.has(k)
    const before = overrides.get(k)
    overrides.set(k, like)
    pending.add(k)
    try {
      const result = await invoke(
        'catalog:like',
        named ? { id: song.id, like, sourceId: named } : { id: song.id, like },
      )
      overrides.set(k, result.like)
      if (result.playlist !== undefined && !named) playlistId.value = result.playlist
      revision.value++
      return result.like
    } catch (cause) {
      if (had) overrides.set(k, before!)
      else overrides.delete(k)
      throw toCadenceError(cause)
    } finally {
      pending.delete(k)
    }
  }

  /** Forgets the toggles (another data source is active: its ids are other songs). */
  function reset() {
    overrides.clear()
    playlistId.value = undefined
    revision.value++
  }

  return {
    overrides,
    pending,
    reset,
    playlistId,
    likedIds,
    refresh,
    check,
    start,
    revision,
    isLiked,
    isPending: (song: Song) => pending.has(keyOf(song)),
    setLiked,
    toggle: (song: Song) => setLiked(song, !isLiked(song)),
  }
})
