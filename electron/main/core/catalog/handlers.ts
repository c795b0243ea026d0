import type { ApiClient } from '../api/client'
import type { Handlers } from '../ipc/router'

type CatalogChannels =
  | 'catalog:recommend-playlists'
  | 'catalog:toplists'
  | 'catalog:playlist'
  | 'catalog:recommend-songs'
  | 'catalog:recommend-artists'
  | 'catalog:artist'
  | 'catalog:search'

/** Browsing: straight through to the active data source's client. */
export function createCatalogHandlers(api: () => ApiClient): Pick<Handlers, CatalogChannels> {
  return {
    'catalog:recommend-playlists': (args) => api().recommendPlaylists(args?.limit),
    'catalog:toplists': (args) => api().toplists(args?.limit),
    'catalog:playlist': ({ id }) => api().playlistDetail(id),
    'catalog:recommend-songs': (args) => api().recommendSongs(args?.limit),
    'catalog:recommend-artists': (args) => api().recommendArtists(args?.limit),
    'catalog:artist': ({ id }) => api().artistDetail(id),
    'catalog:search': ({ keywords, limit }) => api().search(keywords, limit),
  }
}
