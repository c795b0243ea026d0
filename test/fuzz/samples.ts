/** Realistic answers (the `data` of a spec envelope) that the fuzzers start from and then break. */

export const artist = (id: number) => ({ id, name: `Artist ${id}`, avatar: `http://127.0.0.1/a/${id}.png` })
export const album = (id: number) => ({
  id,
  name: `Album ${id}`,
  cover: `http://127.0.0.1/c/${id}.png`,
  artists: [artist(id)],
  size: 10,
})
export const song = (id: number) => ({
  id,
  name: `Song ${id}`,
  tns: ['alias'],
  artists: [artist(id), artist(id + 1)],
  album: album(id),
  duration: 215_000,
  privilege: { playable: true, bitrates: [128000, 320000], maxBitrate: 320000 },
  meta: {
    url: `http://127.0.0.1/media/${id}/320000?sig=abc`,
    md5: 'd41d8cd98f00b204e9800998ecf8427e',
    size: 1234567,
    bitrate: 320000,
    isFavorite: false,
    lyric: { normal: '[00:01.000]la la', translation: '[00:01.000]na na' },
  },
})
export const user = (id: number) => ({
  id,
  name: `User ${id}`,
  avatar: 'http://127.0.0.1/u.png',
  description: 'hi',
})
export const playlist = (id: number, songs = 0) => ({
  id,
  name: `Playlist ${id}`,
  cover: `http://127.0.0.1/p/${id}.png`,
  size: songs,
  creator: user(1),
  type: 'normal',
  description: 'A playlist',
  meta: { updated: 1 },
  ...(songs ? { songs: Array.from({ length: songs }, (_, i) => song(id * 100 + i)) } : {}),
})
export const searchResult = () => ({
  songs: [song(1), song(2)],
  albums: [album(1)],
  artists: [artist(1)],
  playlists: [playlist(1)],
})
