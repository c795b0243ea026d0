import type { Id, Playlist } from '@shared/api/models'
import { MAX_LIST_ROWS } from '@shared/ipc/contract'
import type { AlbumDetail } from '@shared/ipc/contract'
import type { Handlers } from '../ipc/router'
import {
  albumDetail,
  changePlaylistSongs,
  createPlaylist,
  likeAlbum,
  savedAlbums,
  subscribePlaylist,
} from '../api/extensions'
import type { CapabilityMemory } from '../capabilities'
import type { ActiveCall } from '../sources/active'
import { toRow } from '../catalog/paged'
import type { LikedSongsService } from '../likes'

type Channels = Extract<
  keyof Handlers,
  `account:${string}` | `albums:${string}` | `likes:${string}` | `capabilities:${string}`
>

/**
 * What the active data source offers beyond the document, over IPC: album pages and saved albums,
 * liked songs, and playlists kept in the user's account. Each extension goes through the capability
 * memory, so a source that lacks one answers `unavailable` with words a person can act on.
 */
export function createExtensionHandlers(deps: {
  call: ActiveCall
  capabilities: CapabilityMemory
  likes: LikedSongsService
}): Pick<Handlers, Channels> {
  const { call, capabilities } = deps
  const addSongs = (id: Id, songIds: Id[]) =>
    call((api, sid) =>
      capabilities.use(sid, 'playlist-songs', () => changePlaylistSongs(api, id, songIds, 'add')),
    )
  return {
    'capabilities:get': () => capabilities.get(),
    'albums:detail': ({ id }) =>
      call(async (api, sid) => {
        const album = await capabilities.use(sid, 'album-detail', () => albumDetail(api, id))
        return albumAnswer(album)
      }),
    'albums:saved': () => call((api, sid) => capabilities.use(sid, 'album-sublist', () => savedAlbums(api))),
    'albums:save': ({ id, like }) =>
      call((api, sid) => capabilities.use(sid, 'album-like', () => likeAlbum(api, id, like))),
    'likes:state': () => deps.likes.state(),
    'likes:refresh': () => deps.likes.refresh(),
    'likes:song': ({ id }) => deps.likes.song(id),
    'account:create-playlist': async ({ name, songIds }) => {
      const created = await call((api, sid) =>
        capabilities.use(sid, 'playlist-create', () => createPlaylist(api, name)),
      )
      if (songIds?.length) await addSongs(created.id, songIds)
      return { ...created, size: songIds?.length ?? 0 }
    },
    'account:add-songs': ({ id, songIds }) => addSongs(id, songIds),
    'account:remove-songs': ({ id, songIds }) =>
      call((api, sid) =>
        capabilities.use(sid, 'playlist-songs', () => changePlaylistSongs(api, id, songIds, 'remove')),
      ),
    // Asked by removing nothing, which changes nothing: a source without the endpoint answers 404.
    'account:can-change-songs': async ({ id }) => {
      const known = capabilities.get()['playlist-songs']
      if (known !== 'unknown') return known === 'present'
      await call((api, sid) =>
        capabilities.use(sid, 'playlist-songs', () => changePlaylistSongs(api, id, [], 'remove')),
      ).catch(() => undefined)
      return capabilities.get()['playlist-songs'] === 'present'
    },
    'account:subscribe': ({ id, subscribe }) =>
      call((api, sid) =>
        capabilities.use(sid, 'playlist-subscribe', () => subscribePlaylist(api, id, subscribe)),
      ),
  }
}

/**
 * An album as the renderer gets it: rows, at most `MAX_LIST_ROWS` of them whatever `size` the source
 * claims or however many songs it sent (`capped` says both), and its size the songs shown.
 */
function albumAnswer(album: Playlist): AlbumDetail {
  const songs = album.songs?.slice(0, MAX_LIST_ROWS)
  const said = album.size === undefined || Number.isNaN(album.size) ? 0 : album.size
  const claimed = Math.floor(Math.min(Math.max(said, album.songs?.length ?? 0), Number.MAX_SAFE_INTEGER))
  const shown = songs?.length ?? 0
  if (claimed <= MAX_LIST_ROWS) return { ...album, type: 'album', songs: songs?.map(toRow) }
  return { ...album, type: 'album', size: shown, songs: songs?.map(toRow), capped: { claimed, shown } }
}
