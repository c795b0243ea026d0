import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { Song } from '@shared/api/models'
import type { CadenceError } from '@shared/errors'
import type { CollectionFormat, CollectionSong, CollectionSummary, SongRow } from '@shared/ipc/contract'
import { invoke, on } from '@renderer/services/cadence'
import type { AsyncStatus } from '@renderer/stores/async-state'
import { toCadenceError } from '@renderer/services/cadence-error'
import { useAsyncState } from '@renderer/stores/async-state'

const clip = (text: string, max = 500) => text.slice(0, max)

/**
 * What a playlist of the user's own keeps of a song (a plain copy: no media URL, no lyrics, nothing
 * reactive, so it crosses IPC as it is). Takes a row as well as a whole song: a row's album carries no
 * artists.
 */
export function toCollectionSong(song: SongRow): CollectionSong {
  const sourceId = (song as SongRow & { sourceId?: string }).sourceId
  const artist = (a: Song['artists'][number]) => ({
    id: a.id,
    name: clip(a.name),
    ...(a.avatar ? { avatar: clip(a.avatar, 2048) } : {}),
  })
  return {
    id: song.id,
    name: clip(song.name),
    tns: (song.tns ?? []).slice(0, 20).map((t) => clip(t)),
    artists: song.artists.slice(0, 50).map(artist),
    ...(song.album
      ? {
          album: {
            id: song.album.id,
            name: clip(song.album.name),
            artists: (song.album.artists ?? []).slice(0, 50).map(artist),
            ...(song.album.cover ? { cover: clip(song.album.cover, 2048) } : {}),
            ...(song.album.size !== undefined ? { size: song.album.size } : {}),
          },
        }
      : {}),
    ...(song.duration !== undefined ? { duration: song.duration } : {}),
    ...(song.privilege
      ? {
          privilege: {
            playable: song.privilege.playable,
            ...(song.privilege.reason ? { reason: clip(song.privilege.reason) } : {}),
          },
        }
      : {}),
    // A song of a named data source (a queue entry, a row of a playlist that mixes sources) keeps it.
    ...(sourceId ? { sourceId } : {}),
  }
}

/** A stored song as the song list shows it. */
export const fromCollectionSong = (song: CollectionSong): Song =>
  ({
    ...song,
    album: song.album && { ...song.album },
    privilege: song.privilege && { bitrates: [], ...song.privilege },
  }) as Song

/**
 * The user's own playlists, of songs of any data source (kept by main, `collection:*`): the list for the
 * sidebar, kept fresh by `collection:changed`, and the songs waiting for "Add to playlist".
 */
export const useCollectionStore = defineStore('collection', () => {
  const playlists = shallowRef<CollectionSummary[]>([])
  const status = ref<AsyncStatus>('idle')
  const error = shallowRef<CadenceError>()
  /** Songs the add-to-playlist dialog is open for. */
  const adding = shallowRef<Song[]>()
  let listening = false

  async function load() {
    status.value = 'loading'
    try {
      playlists.value = await invoke('collection:list')
      status.value = 'ready'
    } catch (cause) {
      error.value = toCadenceError(cause)
      status.value = 'error'
    }
  }
  function start() {
    if (!listening) {
      listening = true
      on('collection:changed', (list) => {
        playlists.value = list
        status.value = 'ready'
      })
    }
    if (status.value === 'idle') void load()
  }

  const create = (name: string, songs?: Song[]) =>
    invoke('collection:create', { name, ...(songs?.length ? { songs: songs.map(toCollectionSong) } : {}) })
  const rename = (id: string, name: string) => invoke('collection:rename', { id, name })
  const remove = (id: string) => invoke('collection:delete', { id })
  const add = (id: string, songs: Song[]) =>
    invoke('collection:add', { id, songs: songs.map(toCollectionSong) })
  const exportFile = (id: string, format: CollectionFormat) => invoke('collection:export', { id, format })
  const importFile = (text: string, name?: string) =>
    invoke('collection:import', { text, ...(name ? { name: name.slice(0, 200) } : {}) })

  return {
    playlists,
    status,
    error,
    adding,
    load,
    start,
    create,
    rename,
    remove,
    add,
    exportFile,
    importFile,
    askToAdd: (songs: Song[]) => void (adding.value = songs),
    closeAdd: () => void (adding.value = undefined),
  }
})

/** One of the user's playlists being viewed (`#/collection/:id`), with reorder and remove. */
export const useCollectionPlaylistStore = defineStore('collectionPlaylist', () => {
  const id = ref<string>()
  const detail = useAsyncState(() => invoke('collection:get', { id: id.value! }))

  function open(next: string) {
    if (next !== id.value) detail.data.value = undefined
    id.value = next
    return detail.load()
  }
  /** Moves a song at once; puts it back if main refuses. */
  async function move(from: number, to: number) {
    const before = detail.data.value
    if (!before || from === to) return
    const songs = [...before.songs]
    const [song] = songs.splice(from, 1)
    songs.splice(to, 0, song)
    detail.data.value = { ...before, songs }
    try {
      detail.data.value = await invoke('collection:move', { id: before.id, from, to })
    } catch (cause) {
      detail.data.value = before
      throw toCadenceError(cause)
    }
  }
  /** Removes songs, each named by its id, or its id and data source (`songRefs`). */
  async function removeSongs(songIds: Array<Song['id'] | { id: Song['id']; sourceId?: string }>) {
    const current = detail.data.value
    if (!current) return
    detail.data.value = await invoke('collection:remove', { id: current.id, songIds })
  }

  return { id, detail, open, move, removeSongs }
})
