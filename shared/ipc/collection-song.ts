import { z } from 'zod'
import { idSchema } from '../api/models'

/**
 * The schema of a song as the user's playlists and downloads keep it, apart from `./schemas` so the types
 * built on it (`CollectionSong` in `./contract`, the downloads in `./offline`) import no module that
 * imports them back.
 */
const label = (max: number) => z.string().max(max)
const artistSnapshot = z.object({ id: idSchema, name: label(500), avatar: label(2048).optional() })
/**
 * A song as the user's playlists keep it: what a row shows and what playback needs to resolve it.
 * Unknown keys (meta, bitrates) are dropped, so a media URL or lyrics are never stored.
 */
export const collectionSongSchema = z.object({
  id: idSchema,
  name: label(500),
  tns: z.array(label(500)).max(20),
  artists: z.array(artistSnapshot).max(50),
  album: z
    .object({
      id: idSchema,
      name: label(500),
      cover: label(2048).optional(),
      artists: z.array(artistSnapshot).max(50),
      size: z.number().optional(),
    })
    .optional(),
  duration: z.number().nonnegative().max(1e9).optional(),
  privilege: z.object({ playable: z.boolean(), reason: label(500).optional() }).optional(),
})
export type CollectionSong = z.output<typeof collectionSongSchema>
