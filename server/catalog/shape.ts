import type { AlbumJson, ArtistJson, PrivilegeJson, SongJson, SongRow, UserJson } from './types'

/** Rows to the spec's JSON. URLs are absolute, built from `base` (no trailing slash). */

export function cover(base: string, kind: 'album' | 'artist' | 'playlist' | 'user', id: number): string {
  return `${base}/media/cover/${kind}/${id}`
}

export function artistJson(base: string, id: number, name: string): ArtistJson {
  return { id, name, avatar: cover(base, 'artist', id) }
}

export function userJson(
  base: string,
  user: { id: number; name: string; description?: string | null },
): UserJson {
  const json: UserJson = { id: user.id, name: user.name, avatar: cover(base, 'user', user.id) }
  if (user.description) json.description = user.description
  return json
}

export function albumJson(
  base: string,
  album: { id: number; name: string; artist_id: number | null; artist_name: string | null },
  size: number,
): AlbumJson {
  const json: AlbumJson = { id: album.id, name: album.name, cover: cover(base, 'album', album.id), size }
  if (album.artist_id !== null && album.artist_name !== null)
    json.artists = [artistJson(base, album.artist_id, album.artist_name)]
  return json
}

export function songJson(base: string, r: SongRow): SongJson {
  const bitrates = Array.isArray(r.bitrates)
    ? r.bitrates
    : r.bitrates
      ? r.bitrates.split(',').map(Number)
      : []
  const playable = r.playable === 1 && bitrates.length > 0
  const privilege: PrivilegeJson = {
    playable,
    bitrates,
    maxBitrate: bitrates.length > 0 ? bitrates[bitrates.length - 1] : 0,
  }
  if (!playable) privilege.reason = r.reason ?? 'This song has no playable file.'
  const pairs = Array.isArray(r.artists) ? r.artists : (JSON.parse(r.artists) as Array<[number, string]>)
  const song: SongJson = {
    id: r.id,
    name: r.name,
    artists: pairs.map(([id, name]) => artistJson(base, id, name)),
    duration: r.duration_ms,
    privilege,
  }
  if (r.tns) song.tns = JSON.parse(r.tns) as string[]
  if (r.track_no) song.no = r.track_no
  if (r.disc_no) song.cd = String(r.disc_no)
  if (r.album_id !== null && r.album_name !== null) {
    song.album = { id: r.album_id, name: r.album_name, cover: cover(base, 'album', r.album_id) }
  }
  return song
}
