import type { Song } from '@shared/api/models'
import type { CollectionSong } from '@shared/ipc/contract'

/** A song as a test hands it to `downloads:add` or a playlist of the user's own: the row, no media URL. */
export const asRow = (song: Song): CollectionSong => ({
  id: song.id,
  name: song.name,
  tns: song.tns,
  artists: song.artists.map(({ id, name }) => ({ id, name })),
  album: song.album && { id: song.album.id, name: song.album.name, cover: song.album.cover, artists: [] },
  duration: song.duration,
})
