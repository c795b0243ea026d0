import { z } from 'zod'
import { channel, none } from './channel-spec'
import type {
  LastfmBeginResult,
  LastfmFinishResult,
  ListenBrainzConnectResult,
  ScrobbleState,
} from './scrobble'

/** The `scrobble:*` channels' argument schemas (main only), spread into `invokeChannels`. */

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

export const scrobbleChannels = {
  'scrobble:state': channel<ScrobbleState>().args(none),
  /** Checks the token with the server; kept (sealed in main) only when valid. */
  'scrobble:connect-listenbrainz': channel<ListenBrainzConnectResult>().args(listenBrainzConnectArgs),
  /** Last.fm's desktop sign-in: a token, and its allow page opened in the browser. */
  'scrobble:lastfm-begin': channel<LastfmBeginResult>().args(none),
  /** Once the person allowed Cadence: the session key (kept sealed in main). */
  'scrobble:lastfm-finish': channel<LastfmFinishResult>().args(none),
  'scrobble:disconnect': channel<ScrobbleState>().args(scrobbleServiceArgs),
  /** A song started playing ("now playing" to each connected service; nothing in a private session). */
  'scrobble:now-playing': channel<void>().args(nowPlayingSchema),
}
