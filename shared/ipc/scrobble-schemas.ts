import { z } from 'zod'

/** The `scrobble:*` channels' argument schemas (main only). */

const text = (max: number) => z.string().max(max)

export const nowPlayingSchema = z
  .object({
    sourceId: text(100).min(1),
    songId: text(200).min(1),
    title: text(500),
    artists: z.array(text(500)).max(50),
    album: text(500).optional(),
    durationMs: z
      .number()
      .int()
      .min(0)
      .max(24 * 3600_000),
  })
  .strict()

export const listenBrainzConnectArgs = z
  .object({
    /** A ListenBrainz user token is a UUID; other servers (Maloja) use their own keys. */
    token: z.string().trim().min(1).max(200),
    server: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional(),
  })
  .strict()

export const scrobbleServiceArgs = z.object({ service: z.enum(['listenbrainz', 'lastfm']) }).strict()
