import { z } from 'zod'
import { channel } from './channel-spec'
import { ipcIdSchema } from './collection-song'
import type { DiscordStatus, LrclibAnswer, LrclibLyrics } from './discord-lrclib'

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

/** A channel's argument schema and (type only) its result: `ChannelSpec` in `./schemas`, which spreads these in. */

export const discordLrclibChannels = {
  /** What is playing, for Discord Rich Presence (nothing goes to the data source). */
  'presence:report': channel<void>().args(nowPlayingSchema),
  'discord:status': channel<DiscordStatus>().args(z.undefined()),
  /** The song's LRCLIB lyrics: the kept copy, else asked of LRCLIB (when the setting is on). */
  'lrclib:lookup': channel<LrclibAnswer>().args(lrclibSongSchema),
  /** LRCLIB's search results for the song, to pick another. */
  'lrclib:results': channel<LrclibLyrics[]>().args(lrclibSongSchema),
  /** Keeps another of the search results for the song. */
  'lrclib:choose': channel<LrclibAnswer>().args(lrclibChooseArgs),
  /** Hides (or shows again) the song's LRCLIB lyrics. */
  'lrclib:hide': channel<LrclibAnswer>().args(lrclibHideArgs),
}
