import { defineStore } from 'pinia'
import { reactive, ref } from 'vue'
import type { Id, Song } from '@shared/api/models'
import { invoke } from '@renderer/services/cadence'
import { toCadenceError } from '@renderer/services/cadence-error'

/**
 * Whether `song` is liked, given the user's toggles (`overrides`, keyed by id as a string). A plain
 * function, not a store action, so a long list can ask it for every row it renders at little cost.
 */
export function isSongLiked(overrides: ReadonlyMap<string, boolean>, song: Song): boolean {
  return overrides.get(String(song.id)) ?? song.meta?.isFavorite ?? false
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

  const key = (id: Id) => String(id)
  const isLiked = (song: Song) => isSongLiked(overrides, song)

  /** Resolves to the new state; throws (after rolling back) when refused. */
  async function setLiked(song: Song, like: boolean): Promise<boolean> {
    const k = key(song.id)
    const had = overrides.has(k)
    const before = overrides.get(k)
    overrides.set(k, like)
    pending.add(k)
    try {
      const result = await invoke('catalog:like', { id: song.id, like })
      overrides.set(k, result.like)
      if (result.playlist !== undefined) playlistId.value = result.playlist
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
    revision,
    isLiked,
    isPending: (song: Song) => pending.has(key(song.id)),
    setLiked,
    toggle: (song: Song) => setLiked(song, !isLiked(song)),
  }
})
