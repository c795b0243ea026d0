import type { RouteLocationRaw } from 'vue-router'
import type { Album } from '@shared/api/models'

/**
 * The album page for an album as a song or a search result names it: by id (the data source's album
 * playlist), with its name and first artist so the page can find its songs by search when there is none.
 */
export function albumRoute(
  album: Pick<Album, 'id' | 'name'> & { artists?: Album['artists'] },
  artist?: string,
) {
  const query: Record<string, string> = {}
  if (album.name) query.name = album.name
  const by = artist ?? album.artists?.[0]?.name
  if (by) query.artist = by
  return {
    name: 'album',
    params: { id: album.id === undefined || album.id === '' ? '' : String(album.id) },
    query,
  } satisfies RouteLocationRaw
}
