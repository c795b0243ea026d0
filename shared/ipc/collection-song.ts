import { z } from 'zod'

/**
 * The schema of a song as the user's playlists and downloads keep it, apart from `./schemas` so the types
 * built on it (`CollectionSong` in `./contract`, the downloads in `./offline`) import no module that
 * imports them back.
 */

/**
 * The longest id (in characters) any IPC argument may carry. A hostile data source can name a song with a
 * megabyte of id; the renderer passes ids back as it got them, so the door stops them here (a typed
 * `invalid-argument`) before main builds a request, a cache key or a file name from one.
 */
export const IPC_ID_MAX = 200
/** An id as an IPC argument: the API's id (string or number) with a length cap. */
export const ipcIdSchema = z.union([z.string().min(1).max(IPC_ID_MAX), z.number()])
const label = (max: number) => z.string().max(max)
const artistSnapshot = z.object({ id: ipcIdSchema, name: label(500), avatar: label(2048).optional() })
/**
 * A song as the user's playlists keep it: what a row shows and what playback needs to resolve it.
 * Unknown keys (meta, bitrates) are dropped, so a media URL or lyrics are never stored.
 */
export const collectionSongSchema = z.object({
  id: ipcIdSchema,
  name: label(500),
  tns: z.array(label(500)).max(20),
  artists: z.array(artistSnapshot).max(50),
  album: z
    .object({
      id: ipcIdSchema,
      name: label(500),
      cover: label(2048).optional(),
      artists: z.array(artistSnapshot).max(50),
      size: z.number().optional(),
    })
    .optional(),
  duration: z.number().nonnegative().max(1e9).optional(),
  privilege: z.object({ playable: z.boolean(), reason: label(500).optional() }).optional(),
  /** The song's data source (the user's playlists hold songs of any source). */
  sourceId: z.string().min(1).max(IPC_ID_MAX).optional(),
})
export type CollectionSong = z.output<typeof collectionSongSchema>

/** A song in one of the user's playlists: its id, or its id and data source (the same id at two is two songs). */
export const songRefSchema = z.union([
  ipcIdSchema,
  z.object({ id: ipcIdSchema, sourceId: z.string().min(1).max(IPC_ID_MAX).optional() }).strict(),
])
