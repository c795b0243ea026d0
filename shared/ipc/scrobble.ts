/**
 * Scrobbling between renderer and main (`scrobble:*` channels): ListenBrainz (and servers speaking its
 * API) and Last.fm. Types only (the schemas are in `./scrobble-schemas`, main only). No token, session key
 * or API secret ever crosses to the renderer: it sees who is connected and one plain status.
 */

export type ScrobbleServiceId = 'listenbrainz' | 'lastfm'

/** The song that just started playing (`scrobble:now-playing`). */
export interface NowPlayingTrack {
  sourceId: string
  songId: string
  title: string
  artists: string[]
  album?: string
  durationMs: number
}

export interface ConnectionState {
  /**
   * - `off`: not turned on (the default);
   * - `connected`: sending;
   * - `authorising`: Last.fm waits for the person to allow Cadence in the browser;
   * - `invalid`: the service refused the token or session key (nothing is sent; the listens wait);
   * - `unavailable`: Last.fm without an API key in this build.
   */
  status: 'off' | 'connected' | 'authorising' | 'invalid' | 'unavailable'
  /** The account name the service answered with. */
  user?: string
  /** Listens waiting to be sent. */
  waiting: number
  /** Why they wait: the service could not be reached (or answered nonsense), or it asked us to slow down. */
  problem?: 'unreachable' | 'rate-limited'
  /** ListenBrainz's server address. */
  server?: string
}

export interface ScrobbleState {
  listenbrainz: ConnectionState
  lastfm: ConnectionState
}

/** What entering a ListenBrainz token did. */
export type ListenBrainzConnectResult = 'connected' | 'invalid' | 'unreachable'
/** Last.fm's sign-in steps: the browser opened, or why not; then the session, or why not yet. */
export type LastfmBeginResult = 'opened' | 'unavailable' | 'unreachable'
export type LastfmFinishResult = 'connected' | 'not-yet' | 'expired' | 'unreachable'

export const LISTENBRAINZ_DEFAULT_SERVER = 'https://api.listenbrainz.org'
