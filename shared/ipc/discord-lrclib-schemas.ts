import { z } from 'zod'
import { ipcIdSchema } from './collection-song'

/** The `presence:*`, `discord:*` and `lrclib:*` channels' argument schemas (main only). */

const text = (max: number) => z.string().max(max)
const ms = z
  .number()
  .min(0)
  .max(24 * 3600_000)

export const nowPlayingSchema = z
  .object({
    playing: z.boolean(),
    song: z
      .object({
        id: ipcIdSchema,
        name: text(500),
        artists: text(1000),
        album: text(500).optional(),
        cover: text(2048).optional(),
      })
      .strict()
      .nullable(),
    positionMs: ms,
    durationMs: ms,
  })
  .strict()

export const lrclibSongSchema = z
  .object({
    sourceId: text(100).min(1),
    songId: ipcIdSchema,
    track: text(500),
    artist: text(1000),
    album: text(500).optional(),
    durationMs: ms,
  })
  .strict()

export const lrclibKeyArgs = z.object({ sourceId: text(100).min(1), songId: ipcIdSchema }).strict()
export const lrclibChooseArgs = lrclibSongSchema.extend({ id: z.number().int().min(0) }).strict()
export const lrclibHideArgs = lrclibKeyArgs.extend({ hidden: z.boolean() }).strict()
