import { defineStore } from 'pinia'
import { computed } from 'vue'
import type { Id, Playlist, Song } from '@shared/api/models'
import { invoke } from '@renderer/services/cadence'
import { toCadenceError } from '@renderer/services/cadence-error'
import { useAuthStore } from './auth'
import { useCapabilitiesStore } from './capabilities'
import { isLikedPlaylist, useLibraryStore } from './library'
import { useLikesStore } from './likes'

/** Most song ids sent in one request (they travel in one query string). */
const IDS_AT_ONCE = 500

/** Whether an id is a real playlist of the account, not a virtual list (`key_daily_songs`). */
const realId = (id: Id) => typeof id === 'number' || /^\d+$/.test(id)

/**
 * Playlists in the user's account on the data source, where it can hold them (NeteaseMusicAdapter's
 * `/playlist/create`, `/playlist/songs`, `/playlist/subscribe`). Every change shows at once in the
 * library's list and is rolled back when the source refuses it; the caller reports the failure. Renaming,
 * reordering and deleting are not offered: no such endpoint exists, and faking them here would lie.
 */
export const useAccountPlaylistsStore = defineStore('accountPlaylists', () => {
  const auth = useAuthStore()
  const library = useLibraryStore()
  const likes = useLikesStore()
  const capabilities = useCapabilitiesStore()

  /** Whether playlists made now go to the account (else they stay on this computer). */
  const canCreate = computed(() => auth.signedIn && capabilities.offers('playlist-create'))
  const canChangeSongs = computed(() => auth.signedIn && capabilities.offers('playlist-songs'))
  const canSubscribe = computed(() => auth.signedIn && capabilities.offers('playlist-subscribe'))
  /**
   * Whether songs can be removed from the account's playlists: offered only once the source has shown it
   * can (`checkChangeSongs`), never to be refused after the click.
   */
  const canRemoveSongs = computed(() => auth.signedIn && capabilities.confirmed('playlist-songs'))
  /** Asks the source, once, whether it can change a playlist's songs (removing nothing from `id`). */
  async function checkChangeSongs(id: Id) {
    const known = capabilities.known?.['playlist-songs']
    if (!canChangeSongs.value || known === 'present' || known === 'absent') return
    try {
      await invoke('account:can-change-songs', { id })
    } finally {
      await capabilities.load()
    }
  }

  const mine = (p: Pick<Playlist, 'id' | 'creator' | 'meta'>) =>
    realId(p.id) &&
    !isLikedPlaylist(p, likes.playlistId) &&
    p.creator !== undefined &&
    String(p.creator.id) === String(auth.user?.id)
  /** The account's own playlists songs can be added to (the liked one has its heart instead). */
  const targets = computed(() => (canChangeSongs.value ? library.playlists.filter(mine) : []))

  /** Replaces the library's list, keeping what the change did to one playlist (or adds it). */
  function patch(id: Id, edit: (p: Playlist) => Playlist | undefined) {
    library.playlists = library.playlists.flatMap((p) => {
      if (String(p.id) !== String(id)) return [p]
      const next = edit(p)
      return next ? [next] : []
    })
  }

  async function changeSongs(id: Id, songIds: Id[], change: 'add' | 'remove') {
    for (let i = 0; i < songIds.length; i += IDS_AT_ONCE) {
      const part = songIds.slice(i, i + IDS_AT_ONCE)
      await invoke(change === 'add' ? 'account:add-songs' : 'account:remove-songs', { id, songIds: part })
    }
  }

  /**
   * A playlist made in the account with `songs` in it. Shown in the library at once (after the liked
   * one), replaced by the source's answer, removed again when it refuses. Throws `unavailable` when the
   * source cannot hold playlists (the caller keeps it on this computer instead).
   */
  async function create(name: string, songs: Song[] = []): Promise<Playlist> {
    const placeholder: Playlist = {
      id: `pending:${Date.now()}`,
      name,
      cover: undefined,
      size: songs.length,
      creator: auth.user ?? undefined,
      songs: undefined,
      type: 'normal',
      description: undefined,
      meta: undefined,
    }
    const list = library.playlists
    const at = list.length && isLikedPlaylist(list[0], likes.playlistId) ? 1 : 0
    library.playlists = [...list.slice(0, at), placeholder, ...list.slice(at)]
    try {
      const made = await invoke('account:create-playlist', { name })
      const created: Playlist = { ...placeholder, ...made, creator: placeholder.creator, size: 0 }
      patch(placeholder.id, () => created)
      if (songs.length) {
        await changeSongs(
          made.id,
          songs.map((s) => s.id),
          'add',
        )
        patch(made.id, (p) => ({ ...p, size: songs.length }))
      }
      return { ...created, size: songs.length }
    } catch (cause) {
      patch(placeholder.id, () => undefined)
      throw toCadenceError(cause)
    }
  }

  /** Adds songs (new songs go first on the source); the count shows at once, rolled back on refusal. */
  async function add(playlist: Pick<Playlist, 'id'>, songs: Song[]) {
    const n = songs.length
    patch(playlist.id, (p) => ({ ...p, size: (p.size ?? 0) + n }))
    try {
      await changeSongs(
        playlist.id,
        songs.map((s) => s.id),
        'add',
      )
    } catch (cause) {
      patch(playlist.id, (p) => ({ ...p, size: Math.max(0, (p.size ?? n) - n) }))
      throw toCadenceError(cause)
    }
  }

  async function remove(playlist: Pick<Playlist, 'id'>, songIds: Id[]) {
    const n = songIds.length
    patch(playlist.id, (p) => ({ ...p, size: Math.max(0, (p.size ?? n) - n) }))
    try {
      await changeSongs(playlist.id, songIds, 'remove')
    } catch (cause) {
      patch(playlist.id, (p) => ({ ...p, size: (p.size ?? 0) + n }))
      throw toCadenceError(cause)
    }
  }

  /** Subscribes to (or leaves) someone's playlist: it shows under the user's list at once. */
  async function subscribe(playlist: Omit<Playlist, 'songs'>, on: boolean) {
    const had = library.playlists.find((p) => String(p.id) === String(playlist.id))
    const { id, name, cover, size, creator, type, description, meta } = playlist
    const entry: Playlist = { id, name, cover, size, creator, songs: undefined, type, description, meta }
    if (on && !had) library.playlists = [...library.playlists, entry]
    if (!on && had) patch(playlist.id, () => undefined)
    try {
      await invoke('account:subscribe', { id: playlist.id, subscribe: on })
    } catch (cause) {
      if (on && !had) patch(playlist.id, () => undefined)
      if (!on && had) library.playlists = [...library.playlists, had]
      throw toCadenceError(cause)
    }
  }

  return {
    canCreate,
    canChangeSongs,
    canRemoveSongs,
    canSubscribe,
    targets,
    mine,
    checkChangeSongs,
    create,
    add,
    remove,
    subscribe,
  }
})
