import { createHash } from 'node:crypto'
import type { Listen } from '@shared/ipc/history'
import type { NowPlayingTrack } from '@shared/ipc/scrobble'
import { isObject, request } from './http'
import type { SendOutcome } from './listenbrainz'

/**
 * A Last.fm client (last.fm/api: desktop auth, scrobbling, track.scrobble, track.updateNowPlaying).
 * Every request is signed (`apiSignature`) and answers JSON; errors are classified, never thrown past here.
 */

export const LASTFM_ROOT = 'https://ws.audioscrobbler.com/2.0/'
export const LASTFM_AUTH_PAGE = 'https://www.last.fm/api/auth/'
/** At most this many scrobbles in one `track.scrobble` (Last.fm's limit). */
export const LASTFM_BATCH = 50

/** The project's API account, set at build time (none: Last.fm is not available in this build). */
export interface LastfmKeys {
  apiKey: string
  secret: string
  /** The API root (tests: a fake on loopback). */
  root?: string
  /** The page the person allows Cadence on. */
  authPage?: string
}

/**
 * `api_sig` as documented: every parameter but `format` and `callback`, sorted by name, each name
 * followed by its value, the shared secret appended, the MD5 of that UTF-8 text in hex.
 */
export function apiSignature(params: Record<string, string>, secret: string): string {
  const text = Object.keys(params)
    .filter((k) => k !== 'format' && k !== 'callback')
    .sort()
    .map((k) => k + params[k])
    .join('')
  return createHash('md5')
    .update(text + secret, 'utf8')
    .digest('hex')
}

type Call = { error: number; message: string } | { value: Record<string, unknown> } | 'unreachable'

export function createLastfmClient(deps: { fetch: typeof fetch; keys: LastfmKeys }) {
  const { keys } = deps
  const root = keys.root ?? LASTFM_ROOT

  async function call(method: string, params: Record<string, string>): Promise<Call> {
    const signed: Record<string, string> = { ...params, method, api_key: keys.apiKey }
    signed.api_sig = apiSignature(signed, keys.secret)
    signed.format = 'json'
    try {
      const answer = await request(
        deps.fetch,
        root,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(signed).toString(),
        },
        method,
      )
      const body = answer.body
      if (!isObject(body)) return 'unreachable'
      if (typeof body.error === 'number') {
        return { error: body.error, message: String(body.message ?? '').slice(0, 300) }
      }
      return answer.status >= 200 && answer.status < 300 ? { value: body } : 'unreachable'
    } catch {
      return 'unreachable'
    }
  }

  /** Error codes → what to do: 9 signed out; 11, 16 temporary; 29 rate limit; others rejected. */
  function outcome(result: Call): SendOutcome {
    if (result === 'unreachable') return { kind: 'unreachable' }
    if ('value' in result) return { kind: 'ok' }
    if (result.error === 9) return { kind: 'unauthorized' }
    if (result.error === 29) return { kind: 'rate-limited', waitMs: 60_000 }
    if (result.error === 11 || result.error === 16) return { kind: 'unreachable' }
    // 10, 26 (the key), 13 (signature): the build's account, not the listens: try again later.
    if (result.error === 10 || result.error === 13 || result.error === 26) return { kind: 'unreachable' }
    return { kind: 'rejected', message: `Last.fm error ${result.error}: ${result.message}` }
  }

  return {
    /** `auth.getToken`, and the page where the person allows Cadence with it. */
    async begin(): Promise<{ token: string; url: string } | 'unreachable'> {
      const result = await call('auth.getToken', {})
      if (result === 'unreachable' || !('value' in result) || typeof result.value.token !== 'string') {
        return 'unreachable'
      }
      const token = result.value.token.slice(0, 200)
      const page = new URL(keys.authPage ?? LASTFM_AUTH_PAGE)
      page.searchParams.set('api_key', keys.apiKey)
      page.searchParams.set('token', token)
      return { token, url: page.toString() }
    },
    /** `auth.getSession`: the session key and user, or why not (14: not allowed yet; 15, 4: expired). */
    async session(
      token: string,
    ): Promise<{ key: string; user: string } | 'not-yet' | 'expired' | 'unreachable'> {
      const result = await call('auth.getSession', { token })
      if (result === 'unreachable') return 'unreachable'
      if ('error' in result) {
        if (result.error === 14) return 'not-yet'
        if (result.error === 15 || result.error === 4) return 'expired'
        return 'unreachable'
      }
      const session = result.value.session
      if (!isObject(session) || typeof session.key !== 'string') return 'unreachable'
      return { key: session.key, user: typeof session.name === 'string' ? session.name.slice(0, 200) : '' }
    },
    /** `track.updateNowPlaying` (sent once: no retry). */
    async nowPlaying(sessionKey: string, track: NowPlayingTrack): Promise<SendOutcome> {
      return outcome(
        await call('track.updateNowPlaying', {
          sk: sessionKey,
          artist: track.artists.join(', ') || 'Unknown artist',
          track: track.title || 'Unknown title',
          ...(track.album ? { album: track.album } : {}),
          ...(track.durationMs > 0 ? { duration: String(Math.round(track.durationMs / 1000)) } : {}),
        }),
      )
    },
    /** `track.scrobble`: up to 50 listens, each with its UTC start time. */
    async scrobble(sessionKey: string, listens: readonly Listen[]): Promise<SendOutcome> {
      const params: Record<string, string> = { sk: sessionKey }
      listens.slice(0, LASTFM_BATCH).forEach((l, i) => {
        params[`artist[${i}]`] = l.artists.join(', ') || 'Unknown artist'
        params[`track[${i}]`] = l.title || 'Unknown title'
        params[`timestamp[${i}]`] = String(Math.floor(l.listenedAt / 1000))
        if (l.album) params[`album[${i}]`] = l.album
        if (l.durationMs > 0) params[`duration[${i}]`] = String(Math.round(l.durationMs / 1000))
        if (l.autoplay) params[`chosenByUser[${i}]`] = '0'
      })
      return outcome(await call('track.scrobble', params))
    },
  }
}

export type LastfmClient = ReturnType<typeof createLastfmClient>
