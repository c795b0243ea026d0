import { z } from 'zod'
import { albumSchema, artistSchema, playlistSchema, songSchema } from '@shared/api/models'

/**
 * The tolerant answer schemas: what the data source's `data` is checked against beyond the shared models.
 * Real servers deviate (one bad song in a list, `null` for an empty search); a bad item is dropped, not the
 * whole answer.
 */

/**
 * Long lists are checked in slices with a turn of the event loop between them, so a big answer (a
 * 10,000-song playlist) never holds the main process for the whole check in one piece.
 */
const SLICE = 500
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Items that fail their schema are dropped, so one bad entry never blanks a whole list. */
export function tolerantList<T extends z.ZodType>(item: T) {
  return z
    .array(z.unknown())
    .nullish()
    .transform(async (values) => {
      const out: z.output<T>[] = []
      const list = values ?? []
      for (let i = 0; i < list.length; i++) {
        if (i > 0 && i % SLICE === 0) await nextTurn()
        const parsed = item.safeParse(list[i])
        if (parsed.success) out.push(parsed.data)
      }
      return out
    })
}

export const playlistList = tolerantList(playlistSchema)
export const songList = tolerantList(songSchema)
export const artistList = tolerantList(artistSchema)

/** A detail whose one bad song would otherwise blank the whole playlist. */
export const playlistDetailSchema = playlistSchema.extend({
  songs: z
    .unknown()
    .transform(async (value) => (Array.isArray(value) ? await songList.parseAsync(value) : undefined)),
})

/**
 * An artist's detail: a playlist-shaped object. Where the server sends the artist's albums in
 * `meta.albums` (the spec leaves `meta` open), they are checked like search's albums, bad ones dropped,
 * so the renderer can show them as `Album[]`; anything else there is removed.
 */
export const albumList = tolerantList(albumSchema)
export const artistDetailSchema = playlistDetailSchema.transform(async (artist) => {
  const albums = artist.meta?.albums
  if (albums === undefined) return artist
  const { albums: _dropped, ...meta } = artist.meta ?? {}
  void _dropped
  return Array.isArray(albums)
    ? { ...artist, meta: { ...meta, albums: await albumList.parseAsync(albums) } }
    : { ...artist, meta }
})

/**
 * A playlist whose songs are left unchecked: the paged catalogue (`core/catalog/paged.ts`) validates them
 * a page at a time, as they are asked for, instead of all of a long list before the first is shown.
 */
export const playlistRawSongsSchema = playlistSchema.extend({
  songs: z.unknown().transform((value) => (Array.isArray(value) ? (value as unknown[]) : undefined)),
})
export type PlaylistWithRawSongs = z.output<typeof playlistRawSongsSchema>

/** Search: every list tolerant; some servers answer `[]` or `null` when nothing matched. */
export const searchSchema = z.preprocess(
  (value) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}),
  z.object({
    songs: tolerantList(songSchema),
    albums: tolerantList(albumSchema),
    artists: tolerantList(artistSchema),
    playlists: tolerantList(playlistSchema),
  }),
)
