/** The spec's JSON shapes the catalogue answers, and the database rows they are made from. */

export interface UserJson {
  id: number
  name: string
  avatar: string
  description?: string
}
export interface ArtistJson {
  id: number
  name: string
  avatar: string
}
export interface AlbumJson {
  id: number
  name: string
  cover: string
  artists?: ArtistJson[]
  size?: number
}
export interface PrivilegeJson {
  playable: boolean
  reason?: string
  bitrates: number[]
  maxBitrate: number
}
export interface SongJson {
  id: number
  name: string
  tns?: string[]
  artists: ArtistJson[]
  album?: AlbumJson
  duration: number
  privilege: PrivilegeJson
  meta?: Record<string, unknown>
  /** Track number on its album, and its disc (as NeteaseMusicAdapter names them). */
  no?: number
  cd?: string
}
export interface PlaylistJson {
  id: number
  name: string
  cover: string
  size: number
  type: 'normal' | 'album' | 'dj' | 'artist'
  description?: string
  creator?: UserJson
  songs?: SongJson[]
  meta?: Record<string, unknown>
}

export interface SongRow {
  id: number
  name: string
  tns: string | null
  duration_ms: number
  playable: number
  reason: string | null
  album_id: number | null
  album_name: string | null
  /** JSON `[[id, name], …]` from the list query, or the pairs themselves. */
  artists: string | Array<[number, string]>
  /** Comma-separated from the list query, or the numbers themselves. */
  bitrates: string | number[] | null
  /** Its disc and track number on its album (0: not known). */
  disc_no?: number
  track_no?: number
}

export interface PlaylistRow {
  id: number
  name: string
  type: PlaylistJson['type']
  kind: 'user' | 'editorial' | 'chart' | 'album' | 'liked'
  description: string | null
  creator_id: number | null
  creator_name: string | null
  artist_id: number | null
  artist_name: string | null
  rule: string | null
  released_at: number | null
  created_at: number
}

export const PLAYLIST_COLUMNS = `p.id, p.name, p.type, p.kind, p.description, p.creator_id, u.name AS creator_name,
  p.artist_id, ar.name AS artist_name, p.rule, p.released_at, p.created_at`
export const PLAYLIST_FROM = `playlists p LEFT JOIN users u ON u.id = p.creator_id LEFT JOIN artists ar ON ar.id = p.artist_id`

/** Longest song list any single response carries (a playlist's detail returns all songs up to this). */
export const MAX_DETAIL_SONGS = 100_000
