import { PLAYLIST_TYPES } from '@shared/api/models'

/**
 * Independent checks of the normalised model types (written from the spec and shared/api/models.ts types,
 * not from the zod schemas, so a schema mistake cannot hide itself). Each returns the problems found.
 */

type Check = (value: unknown, path: string, problems: string[]) => void

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

function id(v: unknown, path: string, problems: string[]) {
  if (!((typeof v === 'string' && v.length > 0) || finite(v))) problems.push(`${path}: not an id`)
}
function str(v: unknown, path: string, problems: string[]) {
  if (typeof v !== 'string') problems.push(`${path}: not a string`)
}
function optStr(v: unknown, path: string, problems: string[]) {
  if (v !== undefined) str(v, path, problems)
}
function optNum(v: unknown, path: string, problems: string[]) {
  if (v !== undefined && !finite(v)) problems.push(`${path}: not a finite number`)
}
function optBool(v: unknown, path: string, problems: string[]) {
  if (v !== undefined && typeof v !== 'boolean') problems.push(`${path}: not a boolean`)
}
const listOf =
  (item: Check): Check =>
  (v, path, problems) => {
    if (!Array.isArray(v)) return void problems.push(`${path}: not an array`)
    v.forEach((entry, i) => item(entry, `${path}[${i}]`, problems))
  }
const optional =
  (check: Check): Check =>
  (v, path, problems) => {
    if (v !== undefined) check(v, path, problems)
  }
const object =
  (fields: (o: Record<string, unknown>, path: string, problems: string[]) => void): Check =>
  (v, path, problems) => {
    if (!isObject(v)) return void problems.push(`${path}: not an object`)
    fields(v, path, problems)
  }

export const checkUser: Check = object((o, p, e) => {
  id(o.id, `${p}.id`, e)
  str(o.name, `${p}.name`, e)
  optStr(o.avatar, `${p}.avatar`, e)
  optStr(o.description, `${p}.description`, e)
})

export const checkArtist: Check = object((o, p, e) => {
  id(o.id, `${p}.id`, e)
  str(o.name, `${p}.name`, e)
  optStr(o.avatar, `${p}.avatar`, e)
})

export const checkAlbum: Check = object((o, p, e) => {
  id(o.id, `${p}.id`, e)
  str(o.name, `${p}.name`, e)
  optStr(o.cover, `${p}.cover`, e)
  listOf(checkArtist)(o.artists, `${p}.artists`, e)
  optNum(o.size, `${p}.size`, e)
})

const checkLyric: Check = object((o, p, e) => {
  for (const key of ['normal', 'translation', 'transliteration', 'wordforword'])
    optStr(o[key], `${p}.${key}`, e)
})

export const checkSong: Check = object((o, p, e) => {
  id(o.id, `${p}.id`, e)
  str(o.name, `${p}.name`, e)
  listOf(str)(o.tns, `${p}.tns`, e)
  listOf(checkArtist)(o.artists, `${p}.artists`, e)
  optional(checkAlbum)(o.album, `${p}.album`, e)
  optNum(o.duration, `${p}.duration`, e)
  if (finite(o.duration) && o.duration < 0) e.push(`${p}.duration: negative`)
  optional(
    object((pr, pp, pe) => {
      if (typeof pr.playable !== 'boolean') pe.push(`${pp}.playable: not a boolean`)
      optStr(pr.reason, `${pp}.reason`, pe)
      listOf((b, bp, be) => void (finite(b) || be.push(`${bp}: not a finite number`)))(
        pr.bitrates,
        `${pp}.bitrates`,
        pe,
      )
      optNum(pr.maxBitrate, `${pp}.maxBitrate`, pe)
    }),
  )(o.privilege, `${p}.privilege`, e)
  optional(
    object((m, mp, me) => {
      optStr(m.url, `${mp}.url`, me)
      optStr(m.md5, `${mp}.md5`, me)
      optNum(m.size, `${mp}.size`, me)
      optNum(m.bitrate, `${mp}.bitrate`, me)
      optBool(m.isFavorite, `${mp}.isFavorite`, me)
      optional(checkLyric)(m.lyric, `${mp}.lyric`, me)
    }),
  )(o.meta, `${p}.meta`, e)
})

export const checkPlaylist: Check = object((o, p, e) => {
  id(o.id, `${p}.id`, e)
  str(o.name, `${p}.name`, e)
  optStr(o.cover, `${p}.cover`, e)
  optNum(o.size, `${p}.size`, e)
  optional(checkUser)(o.creator, `${p}.creator`, e)
  optional(listOf(checkSong))(o.songs, `${p}.songs`, e)
  if (!PLAYLIST_TYPES.includes(o.type as never)) e.push(`${p}.type: not a playlist type`)
  optStr(o.description, `${p}.description`, e)
  optional(object(() => {}))(o.meta, `${p}.meta`, e)
})

export const checkSearchResult: Check = object((o, p, e) => {
  listOf(checkSong)(o.songs, `${p}.songs`, e)
  listOf(checkAlbum)(o.albums, `${p}.albums`, e)
  listOf(checkArtist)(o.artists, `${p}.artists`, e)
  listOf(checkPlaylist)(o.playlists, `${p}.playlists`, e)
})

export const checkQrKey: Check = object((o, p, e) => str(o.unikey, `${p}.unikey`, e))
export const checkQrCode: Check = object((o, p, e) => {
  str(o.qrurl, `${p}.qrurl`, e)
  optStr(o.qrimg, `${p}.qrimg`, e)
})
export const checkQrStatus: Check = object((o, p, e) => {
  if (!finite(o.status)) e.push(`${p}.status: not a finite number`)
  optStr(o.cookie, `${p}.cookie`, e)
})
export const checkLikeResult: Check = object((o, p, e) => {
  id(o.id, `${p}.id`, e)
  if (typeof o.like !== 'boolean') e.push(`${p}.like: not a boolean`)
  if (o.playlist !== undefined) id(o.playlist, `${p}.playlist`, e)
})

export const checkPlaylists = listOf(checkPlaylist)
export const checkSongs = listOf(checkSong)
export const checkArtists = listOf(checkArtist)

/** Runs a check and returns its problems (empty when the value has the normalised shape). */
export function problemsOf(check: Check, value: unknown): string[] {
  const problems: string[] = []
  check(value, 'value', problems)
  return problems
}
