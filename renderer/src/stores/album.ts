import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Album, Id, Playlist, SearchResult, Song } from '@shared/api/models'
import type { CadenceError } from '@shared/errors'
import { MAX_LIST_ROWS } from '@shared/ipc/contract'
import type { AlbumDetail, SongRow } from '@shared/ipc/contract'
import { invoke } from '@renderer/services/cadence'
import { useAsyncState } from '@renderer/stores/async-state'
import { useCapabilitiesStore } from './capabilities'

/** What an album link carries: the id the data source gave, and the name and artist to search by. */
export interface AlbumQuery {
  id?: string
  name?: string
  artist?: string
}

/**
 * An album page's content. `source` says where the songs came from: the data source's album endpoint
 * (`/album/detail`, beyond the document, where the source has it), its own `album`-type playlist, or a
 * search for the album's name (the fallback, which the page says).
 */
export interface AlbumPage {
  /** `capped`: main shows only the first songs of an album the data source says is longer. */
  album: AlbumDetail
  source: 'album-detail' | 'data-source' | 'search'
}

/** Largest search the album fallback asks for (the channel's limit). */
export const ALBUM_SEARCH_LIMIT = 100

const same = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase()

/**
 * The songs of the album `query` names among a search result: the album's id when both sides have one,
 * else the same album name (and the same artist, when the link named one).
 */
export function albumSongsFromSearch(result: SearchResult, query: AlbumQuery): Song[] {
  return result.songs.filter((song) => {
    const album = song.album
    if (!album) return false
    if (query.id && album.id !== undefined && String(album.id) === query.id) return true
    if (!same(album.name, query.name)) return false
    if (!query.artist) return true
    const artists = [...song.artists, ...album.artists]
    return artists.some((a) => same(a.name, query.artist))
  })
}

/** The album as a playlist-shaped object, built from what search found. */
function albumFromSearch(result: SearchResult, query: AlbumQuery, songs: Song[]): Playlist {
  const found: Album | undefined =
    result.albums.find((a) => query.id && String(a.id) === query.id) ??
    result.albums.find((a) => same(a.name, query.name)) ??
    songs[0]?.album
  const artist = query.artist ?? found?.artists[0]?.name ?? songs[0]?.artists[0]?.name
  return {
    id: query.id ?? found?.id ?? query.name ?? '',
    name: found?.name || query.name || '',
    cover: found?.cover ?? songs.find((s) => s.album?.cover)?.album?.cover,
    size: songs.length,
    creator: byline(artist),
    songs,
    type: 'album',
    description: undefined,
    meta: undefined,
  }
}

/** The album's own playlist is worth trying unless the data source is down or the user signed out. */
const worthFallingBack = (error: CadenceError) =>
  !['network', 'timeout', 'unauthorized', 'cancelled'].includes(error.kind)

/** The album being viewed (`#/album/:id?name=&artist=`). */
export const useAlbumStore = defineStore('album', () => {
  const query = ref<AlbumQuery>({})
  const capabilities = useCapabilitiesStore()

  async function load(): Promise<AlbumPage> {
    const q = query.value
    if (q.id && capabilities.offers('album-detail')) {
      try {
        const album = await invoke('albums:detail', { id: q.id })
        const artists = album.meta?.artists
        const first = Array.isArray(artists) ? (artists[0] as { name?: unknown } | undefined) : undefined
        const creator =
          album.creator ??
          byline(typeof first?.name === 'string' ? first.name : undefined) ??
          albumArtist(album, q)
        return { album: { ...album, creator }, source: 'album-detail' }
      } catch (cause) {
        // `unavailable`: the source has no album endpoint (now remembered); the fallbacks below.
        if ((cause as CadenceError).kind !== 'unavailable' && !worthFallingBack(cause as CadenceError))
          throw cause
      }
    }
    if (q.id) {
      try {
        const head = await invoke('catalog:playlist', { id: q.id })
        if (head.type === 'album') {
          const { rows, total, ...header } = head
          const playlist: AlbumDetail = { ...header, songs: await allRows(q.id, rows, total) }
          const artist = playlist.creator ?? albumArtist(playlist, q)
          return { album: { ...playlist, creator: artist }, source: 'data-source' }
        }
      } catch (cause) {
        if (!q.name || !worthFallingBack(cause as CadenceError)) throw cause
      }
    }
    if (!q.name) throw new Error('This album cannot be found: the link names no album')
    const result = await invoke('catalog:search', { keywords: q.name, limit: ALBUM_SEARCH_LIMIT })
    const songs = albumSongsFromSearch(result, q)
    return { album: albumFromSearch(result, q, songs), source: 'search' }
  }
  const detail = useAsyncState(load)

  function open(next: AlbumQuery) {
    const key = (x: AlbumQuery) => JSON.stringify([x.id, x.name, x.artist])
    if (key(next) !== key(query.value)) detail.data.value = undefined
    query.value = { ...next }
    return detail.load()
  }

  return { query, detail, open }
})

/** Every song of a paged list: the first rows came with the header, the rest in pages (main caps the total). */
async function allRows(id: Id, first: Song[], total: number): Promise<Song[]> {
  const songs = [...first]
  while (songs.length < Math.min(total, MAX_LIST_ROWS)) {
    const page = await invoke('catalog:playlist-rows', { id, offset: songs.length, limit: 2000 })
    if (page.rows.length === 0) break
    songs.push(...page.rows)
  }
  return songs
}

/** An album playlist without a creator: its artist, from the link or its songs. */
function albumArtist(playlist: Playlist, q: AlbumQuery) {
  // The songs are rows: a row's album carries no artists (`SongRow`).
  const first = playlist.songs?.[0] as SongRow | undefined
  const name = q.artist ?? first?.album?.artists?.[0]?.name ?? first?.artists[0]?.name
  return byline(name)
}

/** The album's artist where the header shows a playlist's creator. */
const byline = (name: string | undefined) =>
  name ? { id: name, name, avatar: undefined, description: undefined } : undefined
