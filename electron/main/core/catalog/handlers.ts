import { DataSourceError } from '@shared/errors'
import type { Handlers } from '../ipc/router'
import type { ActiveCall, SourceCall } from '../sources/active'
import { createPagedCatalog } from './paged'

type CatalogChannels = Extract<keyof Handlers, `catalog:${string}`>

/** Browsing: straight through to the active data source's client. */
export function createCatalogHandlers(deps: {
  call: ActiveCall
  userId: () => string | number | undefined
  /** A like of a song of another data source than the active one goes to that source. */
  callOn?: SourceCall
  activeSourceId?: () => string
}): Pick<Handlers, CatalogChannels> {
  const { call } = deps
  const paged = createPagedCatalog({ call })
  return {
    'catalog:recommend-playlists': (args) => call((api) => api.recommendPlaylists(args?.limit)),
    'catalog:toplists': (args) => call((api) => api.toplists(args?.limit)),
    'catalog:user-playlists': (args) => {
      const uid = deps.userId()
      if (uid === undefined) {
        throw new DataSourceError({
          kind: 'unauthorized',
          endpoint: '/playlist/list',
          message: 'Sign in to see your playlists',
        })
      }
      return call((api) => api.userPlaylists(uid, { limit: args?.limit, offset: args?.offset }))
    },
    'catalog:playlist': ({ id }) => paged.open(id),
    'catalog:playlist-rows': (args) => paged.rows(args),
    'catalog:recommend-songs': (args) => call((api) => api.recommendSongs(args?.limit)),
    'catalog:recommend-artists': (args) => call((api) => api.recommendArtists(args?.limit)),
    'catalog:artist': ({ id }) => call((api) => api.artistDetail(id)),
    'catalog:search': ({ keywords, limit }) => call((api) => api.search(keywords, limit)),
    'catalog:like': ({ id, like, sourceId }) => {
      const { callOn, activeSourceId } = deps
      if (sourceId && callOn && activeSourceId && sourceId !== activeSourceId())
        return callOn(sourceId, (api) => api.likeSong(id, like))
      return call((api) => api.likeSong(id, like))
    },
  }
}
