/**
 * Discord Rich Presence and lyrics from LRCLIB between renderer and main (`presence:*`, `discord:*`,
 * `lrclib:*` channels): types and limits only (no zod; the schemas are in `./discord-lrclib-schemas`).
 */

/** What is playing, as the renderer reports it for Discord (main works out the times). */
export interface NowPlayingReport {
  playing: boolean
  song: {
    id: string | number
    name: string
    artists: string
    album?: string
    /** The cover's http(s) address as the source gave it (main decides whether Discord may show it). */
    cover?: string
  } | null
  positionMs: number
  durationMs: number
}

/**
 * Where Rich Presence stands: off (the setting), paused (a private session), waiting for Discord (not
 * running: tried again later, silently), connecting, or connected.
 */
export type DiscordStatus = 'off' | 'paused' | 'not-running' | 'connecting' | 'connected'

/** One LRCLIB record as the lyrics view shows and picks it. */
export interface LrclibLyrics {
  id: number
  trackName: string
  artistName: string
  albumName: string
  /** Seconds. */
  duration: number
  instrumental: boolean
  /** LRC text ('' when none). */
  syncedLyrics: string
  plainLyrics: string
}

/**
 * The song's lyrics from LRCLIB: `off` (the setting is not on), `none` (LRCLIB has none), `unavailable`
 * (LRCLIB could not be asked and nothing is kept), or `found` (kept with the song; `hidden`: the person
 * chose to hide them for this song).
 */
export type LrclibAnswer =
  { status: 'off' | 'none' | 'unavailable' } | { status: 'found'; lyrics: LrclibLyrics; hidden: boolean }

/** The song LRCLIB is asked about. */
export interface LrclibSong {
  sourceId: string
  songId: string | number
  track: string
  artist: string
  album?: string
  durationMs: number
}

export const LRCLIB_RESULTS_MAX = 20
