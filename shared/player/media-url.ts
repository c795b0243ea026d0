/**
 * The app's own media addresses. Main serves every song's audio on this privileged scheme (resolving and
 * re-resolving the data source's signed URL itself), so the renderer never loads media from an address a
 * server handed out, and the CSP's `media-src` names only this scheme.
 */

export const MEDIA_SCHEME = 'cadence-media'
/** The host part of a song's address (a standard scheme needs one). */
const SONG_HOST = 'song'

/** A song of one data source at one requested bitrate: what a media address names. */
export interface MediaRef {
  sourceId: string
  songId: string
  /** The bitrate the player asked for (`br` of `/song/detail`). */
  br: number
}

/**
 * A song that names the data source it belongs to (a download of another source than the active one):
 * `player:resolve` then answers it from that source's files.
 */
export interface SourcedSong {
  sourceId?: string
}

/** `cadence-media://song/<source>/<song>?br=<bitrate>` */
export function mediaUrl(ref: MediaRef): string {
  const source = encodeURIComponent(ref.sourceId)
  const song = encodeURIComponent(ref.songId)
  return `${MEDIA_SCHEME}://${SONG_HOST}/${source}/${song}?br=${Math.round(ref.br)}`
}

/** The song a media address names, or undefined for anything else (wrong scheme, host, shape or bitrate). */
export function parseMediaUrl(address: string): MediaRef | undefined {
  let url: URL
  try {
    url = new URL(address)
  } catch {
    return undefined
  }
  if (url.protocol !== `${MEDIA_SCHEME}:` || url.hostname !== SONG_HOST) return undefined
  const parts = url.pathname.split('/')
  if (parts.length !== 3 || parts[0] !== '' || !parts[1] || !parts[2]) return undefined
  const br = Number(url.searchParams.get('br'))
  if (!Number.isInteger(br) || br <= 0) return undefined
  try {
    return { sourceId: decodeURIComponent(parts[1]), songId: decodeURIComponent(parts[2]), br }
  } catch {
    return undefined
  }
}

/** The host part of a kept cover's address. */
const COVER_HOST = 'cover'

/**
 * `cadence-media://cover/?src=<the cover's address>`: a cover main keeps beside a downloaded or played
 * song, served from disk (404 when it has none), so covers show without the data source. The key is the
 * data source's own address of the image (one file for every song of an album). `sourceId` names the
 * source whose answer gave the address (a song of another source than the active one): main fetches a
 * cover it has not kept under that source's policy, not the active one's.
 */
export function coverMediaUrl(src: string, sourceId?: string): string {
  const source = sourceId ? `&source=${encodeURIComponent(sourceId)}` : ''
  return `${MEDIA_SCHEME}://${COVER_HOST}/?src=${encodeURIComponent(src)}${source}`
}

/** The source a kept-cover address names (`coverMediaUrl`'s `sourceId`), or undefined. */
export function parseCoverSource(address: string): string | undefined {
  try {
    return new URL(address).searchParams.get('source') || undefined
  } catch {
    return undefined
  }
}

/** The cover address a kept-cover address names (an http(s) address), or undefined. */
export function parseCoverMediaUrl(address: string): string | undefined {
  let url: URL
  try {
    url = new URL(address)
  } catch {
    return undefined
  }
  if (url.protocol !== `${MEDIA_SCHEME}:` || url.hostname !== COVER_HOST) return undefined
  if (url.pathname !== '/' && url.pathname !== '') return undefined
  const src = url.searchParams.get('src')
  return src && /^https?:\/\//i.test(src) ? src : undefined
}
