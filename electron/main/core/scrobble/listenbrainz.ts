import type { Listen } from '@shared/ipc/history'
import type { NowPlayingTrack } from '@shared/ipc/scrobble'
import { isObject, request } from './http'
import type { Answer } from './http'

/**
 * A ListenBrainz client (listenbrainz.readthedocs.io, "API" and "JSON format"); any server speaking the
 * same API (Maloja) works under its own address. Every answer is classified, never thrown past here.
 */

/** At most this many listens go in one `import` request. */
export const LISTENBRAINZ_BATCH = 100
/** Wait this long after a 429 that names no reset time. */
const DEFAULT_RESET_MS = 10_000

/** What became of a submission. */
export type SendOutcome =
  | { kind: 'ok'; waitMs?: number }
  /** The token (or session key) is refused: stop sending, keep the listens. */
  | { kind: 'unauthorized' }
  /** Slow down: try again after `waitMs`. */
  | { kind: 'rate-limited'; waitMs: number }
  /** Unreachable, down, or an answer that makes no sense: try again later. */
  | { kind: 'unreachable' }
  /** The service will never take these listens (a malformed submission): they are dropped. */
  | { kind: 'rejected'; message: string }

export interface ClientInfo {
  /** The app's version (`submission_client_version`). */
  version: string
}

/** How long the rate limit asks us to wait, when it asks (`X-RateLimit-Remaining: 0`). */
function rateWait(headers: Headers): number | undefined {
  const reset = Number(headers.get('x-ratelimit-reset-in'))
  const resetMs = Number.isFinite(reset) && reset >= 0 ? Math.min(reset, 3600) * 1000 : undefined
  if (headers.get('x-ratelimit-remaining') === '0') return resetMs ?? DEFAULT_RESET_MS
  return undefined
}

function classify(answer: Answer): SendOutcome {
  const { status, headers, body } = answer
  if (status === 401) return { kind: 'unauthorized' }
  if (status === 429) return { kind: 'rate-limited', waitMs: rateWait(headers) ?? DEFAULT_RESET_MS }
  if (status >= 200 && status < 300) {
    if (!isObject(body) || body.status !== 'ok') return { kind: 'unreachable' }
    const waitMs = rateWait(headers)
    return waitMs === undefined ? { kind: 'ok' } : { kind: 'ok', waitMs }
  }
  if (status === 400) {
    const message =
      isObject(body) && typeof body.error === 'string' ? body.error.slice(0, 300) : 'Bad request'
    return { kind: 'rejected', message }
  }
  return { kind: 'unreachable' }
}

function metadata(track: NowPlayingTrack | Listen, client: ClientInfo) {
  return {
    artist_name: track.artists.join(', ') || 'Unknown artist',
    track_name: track.title || 'Unknown title',
    ...(track.album ? { release_name: track.album } : {}),
    additional_info: {
      media_player: 'Cadence',
      submission_client: 'Cadence',
      submission_client_version: client.version,
      ...(track.durationMs > 0 ? { duration_ms: track.durationMs } : {}),
    },
  }
}

export function createListenBrainzClient(deps: { fetch: typeof fetch; client: ClientInfo }) {
  const base = (server: string) => server.replace(/\/+$/, '')

  async function submit(server: string, token: string, body: unknown): Promise<SendOutcome> {
    try {
      const answer = await request(
        deps.fetch,
        `${base(server)}/1/submit-listens`,
        {
          method: 'POST',
          headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        },
        'submit-listens',
      )
      return classify(answer)
    } catch {
      return { kind: 'unreachable' }
    }
  }

  return {
    /** `GET /1/validate-token`: the user's name, `invalid`, or `unreachable`. */
    async validate(server: string, token: string): Promise<{ user: string } | 'invalid' | 'unreachable'> {
      try {
        const answer = await request(
          deps.fetch,
          `${base(server)}/1/validate-token`,
          { headers: { Authorization: `Token ${token}` } },
          'validate-token',
        )
        const body = answer.body
        if (answer.status === 401 || (isObject(body) && body.valid === false)) return 'invalid'
        if (answer.status !== 200 || !isObject(body) || body.valid !== true) return 'unreachable'
        const user = typeof body.user_name === 'string' ? body.user_name.slice(0, 200) : ''
        return { user }
      } catch {
        return 'unreachable'
      }
    },
    /** `playing_now`: one track, no `listened_at`. */
    playingNow: (server: string, token: string, track: NowPlayingTrack) =>
      submit(server, token, {
        listen_type: 'playing_now',
        payload: [{ track_metadata: metadata(track, deps.client) }],
      }),
    /** `single` for one listen just made, `import` for listens that waited. */
    listens: (server: string, token: string, type: 'single' | 'import', listens: readonly Listen[]) =>
      submit(server, token, {
        listen_type: type,
        payload: listens.map((l) => ({
          listened_at: Math.floor(l.listenedAt / 1000),
          track_metadata: metadata(l, deps.client),
        })),
      }),
  }
}

export type ListenBrainzClient = ReturnType<typeof createListenBrainzClient>
