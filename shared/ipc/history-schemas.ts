import { z } from 'zod'
import { HISTORY_IMPORT_MAX_CHARS, HISTORY_PAGE_MAX, HISTORY_STATS_RANGES } from './history'
import type { HistoryImportResult, HistoryPage, HistoryState, HistoryStats } from './history'
import type { CollectionFile } from './models'
import { channel, none } from './channel-spec'

/** The `history:*` channels and their argument schemas (main only), spread into `invokeChannels`. */

const text = (max: number) => z.string().max(max)

export const listenSchema = z
  .object({
    listenedAt: z.number().int().min(0).max(8.64e15),
    sourceId: text(100).min(1),
    songId: text(200).min(1),
    title: text(500),
    artists: z.array(text(500)).max(50),
    album: text(500).optional(),
    albumId: text(200).optional(),
    durationMs: z
      .number()
      .int()
      .min(0)
      .max(24 * 3600_000),
    cover: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional(),
    autoplay: z.boolean().optional(),
  })
  .strict()

export const historyPageArgs = z
  .object({
    before: z
      .object({ at: z.number().int().min(0), id: z.number().int() })
      .strict()
      .optional(),
    limit: z.number().int().min(1).max(HISTORY_PAGE_MAX),
  })
  .strict()

export const historyImportArgs = z.object({ text: z.string().max(HISTORY_IMPORT_MAX_CHARS) }).strict()
export const historyPrivateArgs = z.object({ on: z.boolean() }).strict()
export const historyHeardSinceArgs = z
  .object({ since: z.number().int().min(0), sourceId: z.string().min(1).max(100) })
  .strict()
export const historyStatsArgs = z
  .object({
    range: z.enum(HISTORY_STATS_RANGES),
    /** The renderer's offset from UTC in minutes (`-getTimezoneOffset()`), so days are local days. */
    utcOffsetMinutes: z
      .number()
      .int()
      .min(-14 * 60)
      .max(14 * 60),
  })
  .strict()

export const historyChannels = {
  /** A listen the renderer counted by the listen rule; false when not kept (private session, placeholder). */
  'history:record': channel<boolean>().args(listenSchema),
  'history:page': channel<HistoryPage>().args(historyPageArgs),
  'history:state': channel<HistoryState>().args(none),
  'history:set-private': channel<HistoryState>().args(historyPrivateArgs),
  'history:clear': channel<void>().args(none),
  /** History as ListenBrainz JSON (an `import` submission body). */
  'history:export': channel<CollectionFile>().args(none),
  /** A ListenBrainz JSON export read back: all of it, or nothing with the reason. */
  'history:import': channel<HistoryImportResult>().args(historyImportArgs),
  /** The song ids of one source heard since a time (autoplay leaves them out). */
  'history:heard-since': channel<string[]>().args(historyHeardSinceArgs),
  /** "Your listening, in pictures": time listened, top songs, artists and albums, listens per day. */
  'history:stats': channel<HistoryStats>().args(historyStatsArgs),
}
