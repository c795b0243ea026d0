import { z } from 'zod'

/**
 * API models and their zod schemas: what the client accepts from any data source, and the normalised
 * shape the rest of Cadence sees. Tolerant where real servers deviate from the spec (docs/api-client.md):
 * null for absent fields, unknown playlist types, extra keys, ids as strings or numbers.
 */

/** Ids are kept exactly as the server gave them. */
export const idSchema = z.union([z.string().min(1), z.number()])
export type Id = z.infer<typeof idSchema>

/** An optional field that some servers send as null: normalised to undefined. */
const opt = <T extends z.ZodType>(schema: T) =>
  schema
    .nullish()
    .catch(undefined)
    .transform((v) => v ?? undefined)

const text = z.union([z.string(), z.number().transform(String)])
const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((v) => v ?? [])

export const PLAYLIST_TYPES = ['normal', 'album', 'dj', 'artist'] as const
export type PlaylistType = (typeof PLAYLIST_TYPES)[number]
const playlistType = z
  .unknown()
  .optional()
  .transform((v): PlaylistType =>
    PLAYLIST_TYPES.includes(v as PlaylistType) ? (v as PlaylistType) : 'normal',
  )

export const userSchema = z.object({
  id: idSchema,
  name: text.nullish().transform((v) => v ?? ''),
  avatar: opt(z.string()),
  description: opt(z.string()),
})
export type User = z.infer<typeof userSchema>

export const artistSchema = z.object({
  id: idSchema,
  name: text.nullish().transform((v) => v ?? ''),
  avatar: opt(z.string()),
})
export type Artist = z.infer<typeof artistSchema>

export const albumSchema = z.object({
  id: idSchema,
  name: text.nullish().transform((v) => v ?? ''),
  cover: opt(z.string()),
  artists: list(artistSchema),
  size: opt(z.number()),
})
export type Album = z.infer<typeof albumSchema>

export const privilegeSchema = z.object({
  playable: z.boolean(),
  reason: opt(z.string()),
  bitrates: list(z.number()).catch([]),
  maxBitrate: opt(z.number()),
})
export type Privilege = z.infer<typeof privilegeSchema>

export const lyricSchema = z.looseObject({
  normal: opt(z.string()),
  translation: opt(z.string()),
  transliteration: opt(z.string()),
  wordforword: opt(z.string()),
})
export type Lyric = z.infer<typeof lyricSchema>

export const songMetaSchema = z.looseObject({
  url: opt(z.string()),
  md5: opt(z.string()),
  size: opt(z.number()),
  bitrate: opt(z.number()),
  isFavorite: opt(z.boolean()),
  lyric: opt(lyricSchema),
})
export type SongMeta = z.infer<typeof songMetaSchema>

export const songSchema = z.object({
  id: idSchema,
  name: text.nullish().transform((v) => v ?? ''),
  tns: list(z.string()).catch([]),
  artists: list(artistSchema),
  album: opt(albumSchema),
  duration: opt(z.number().nonnegative()),
  privilege: opt(privilegeSchema),
  meta: opt(songMetaSchema),
  /** Its track number on its album and its disc ("01" or 1), when the source gives them. */
  no: z.number().int().positive().optional().catch(undefined),
  cd: text.optional().catch(undefined),
})
export type Song = z.infer<typeof songSchema>

export const playlistSchema = z.object({
  id: idSchema,
  name: text.nullish().transform((v) => v ?? ''),
  cover: opt(z.string()),
  size: opt(z.number()),
  creator: opt(userSchema),
  songs: opt(z.array(songSchema)),
  type: playlistType,
  description: opt(z.string()),
  meta: opt(z.record(z.string(), z.unknown())),
})
export type Playlist = z.infer<typeof playlistSchema>

export const qrKeySchema = z.object({ unikey: text })
export type QrKey = z.infer<typeof qrKeySchema>

export const qrCodeSchema = z.object({ qrurl: z.string(), qrimg: opt(z.string()) })
export type QrCode = z.infer<typeof qrCodeSchema>

export const QR_STATUS = { expired: -1, waiting: 0, scanned: 1, authorised: 2 } as const
export const qrStatusSchema = z.object({
  status: z.union([
    z.number(),
    z
      .string()
      .regex(/^-?\d+$/)
      .transform(Number),
  ]),
  cookie: opt(z.string()),
})
export type QrStatus = z.infer<typeof qrStatusSchema>

export const loginStatusSchema = userSchema
export type LoginStatus = User

export const likeResultSchema = z.object({ id: idSchema, like: z.boolean(), playlist: opt(idSchema) })
export type LikeResult = z.infer<typeof likeResultSchema>

export const searchResultSchema = z.object({
  songs: list(songSchema),
  albums: list(albumSchema),
  artists: list(artistSchema),
  playlists: list(playlistSchema),
})
export type SearchResult = z.infer<typeof searchResultSchema>

/** The response envelope (spec 2.1), tolerant of other message casing and numeric or zone-less timestamps. */
export const envelopeSchema = z.object({
  code: z.union([
    z.number(),
    z
      .string()
      .regex(/^-?\d+$/)
      .transform(Number),
  ]),
  message: opt(z.string()),
  /** Absent on some successes: NeteaseMusicAdapter's writes (`/playlist/songs`) answer without `data`. */
  data: z.unknown().optional(),
  timestamp: opt(z.union([z.string(), z.number()])),
})
export type Envelope = z.infer<typeof envelopeSchema>
