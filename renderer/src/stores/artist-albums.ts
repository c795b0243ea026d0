import { defineStore } from 'pinia'
import { shallowRef } from 'vue'
import type { Album, Playlist, SearchResult } from '@shared/api/models'
import { invoke } from '@renderer/services/cadence'
import { useAsyncState } from '@renderer/stores/async-state'

/** An artist's albums and where they came from: the artist detail's `meta.albums`, or a search. */
export interface ArtistAlbums {
  albums: Album[]
  source: 'data-source' | 'search'
}

/** The albums the data source sent with the artist (the core keeps only valid ones), if it sent any. */
export function albumsFromMeta(artist: Playlist): Album[] | undefined {
  const albums = artist.meta?.albums
  return Array.isArray(albums) ? (albums as Album[]) : undefined
}

/** The albums of a search result that are this artist's: by id where the album names artists, else by name. */
export function artistAlbumsFromSearch(result: SearchResult, artist: Pick<Playlist, 'id' | 'name'>): Album[] {
  const name = artist.name.trim().toLowerCase()
  const seen = new Set<string>()
  const out: Album[] = []
  const add = (album: Album) => {
    if (seen.has(String(album.id))) return
    seen.add(String(album.id))
    out.push(album)
  }
  const isTheArtist = (a: { id: unknown; name: string }) =>
    String(a.id) === String(artist.id) || (name !== '' && a.name.trim().toLowerCase() === name)
  for (const album of result.albums) if (album.artists.some(isTheArtist)) add(album)
  // Albums the artist's songs are on, when search found no album itself.
  for (const song of result.songs) {
    if (song.album?.name && song.artists.some(isTheArtist)) add(song.album)
  }
  return out
}

/** The albums shown on the artist page (`#/artist/:id`), for the artist its store holds. */
export const useArtistAlbumsStore = defineStore('artistAlbums', () => {
  const artist = shallowRef<Playlist>()
  const albums = useAsyncState<ArtistAlbums>(async () => {
    const current = artist.value
    if (!current) return { albums: [], source: 'data-source' }
    const sent = albumsFromMeta(current)
    if (sent) return { albums: sent, source: 'data-source' }
    if (!current.name) return { albums: [], source: 'search' }
    const result = await invoke('catalog:search', { keywords: current.name, limit: 100 })
    return { albums: artistAlbumsFromSearch(result, current), source: 'search' }
  })

  function show(next: Playlist | undefined) {
    if (next === artist.value) return
    if (String(next?.id) !== String(artist.value?.id)) albums.data.value = undefined
    artist.value = next
    if (next) void albums.load()
  }

  return { artist, albums, show }
})
