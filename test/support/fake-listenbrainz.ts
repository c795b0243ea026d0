import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A ListenBrainz server on loopback, written from its documentation (listenbrainz.readthedocs.io,
 * "API" and "JSON format"): `GET /1/validate-token` and `POST /1/submit-listens` with
 * `Authorization: Token <token>`, the three listen types and their payload rules, rate-limit headers on
 * every answer, 401 for an unknown token, 429 past the limit, and one listen kept per (user,
 * listened_at, track). The test steers it: down, rate limited, token revoked, answer held back.
 */

export interface ReceivedRequest {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  /** The parsed JSON body (submissions). */
  body?: unknown
}

export interface StoredListen {
  user: string
  listened_at: number
  track_metadata: Record<string, unknown>
}

type Listen = { listened_at?: unknown; track_metadata?: unknown }

export async function startFakeListenBrainz(options: { tokens?: Record<string, string> } = {}) {
  const tokens = new Map(Object.entries(options.tokens ?? {}))
  const requests: ReceivedRequest[] = []
  const listens: StoredListen[] = []
  const playingNow: Array<{ user: string; track_metadata: Record<string, unknown> }> = []
  let down = false
  let limited = 0
  let resetIn = 1
  let holdNext = false
  let garbage: 'huge' | 'html' | undefined
  const held: Array<() => void> = []
  /** Listen submissions answered 200 (the app's acknowledgement). */
  const accepted: Array<{ listen_type: string; payload: Listen[] }> = []

  let lastAllowed = false
  const json = (res: ServerResponse, status: number, body: unknown) => {
    const remaining = lastAllowed ? '0' : '29'
    lastAllowed = false
    res.writeHead(status, {
      'Content-Type': 'application/json',
      'X-RateLimit-Limit': '30',
      'X-RateLimit-Remaining': remaining,
      'X-RateLimit-Reset-In': String(resetIn),
    })
    res.end(JSON.stringify(body))
  }
  const user = (req: IncomingMessage) => {
    const auth = req.headers.authorization ?? ''
    const match = /^Token (.+)$/.exec(auth)
    return match ? tokens.get(match[1]) : undefined
  }

  /** The documented payload rules; answers the reason it is refused, or undefined. */
  function refuse(body: unknown): string | undefined {
    if (typeof body !== 'object' || body === null) return 'Invalid JSON document submitted.'
    const { listen_type, payload } = body as { listen_type?: unknown; payload?: unknown }
    if (listen_type !== 'single' && listen_type !== 'import' && listen_type !== 'playing_now') {
      return 'JSON document requires a valid listen_type key.'
    }
    if (!Array.isArray(payload) || payload.length === 0) return 'JSON document does not contain any listens.'
    if (listen_type !== 'import' && payload.length !== 1)
      return `JSON document should contain exactly one listen.`
    for (const l of payload as Listen[]) {
      const meta = l.track_metadata as Record<string, unknown> | undefined
      if (!meta || typeof meta.artist_name !== 'string' || typeof meta.track_name !== 'string') {
        return 'JSON document does not contain required fields artist_name and track_name.'
      }
      if (listen_type === 'playing_now' && 'listened_at' in l)
        return 'playing_now listens have no listened_at.'
      if (listen_type !== 'playing_now' && !Number.isInteger(l.listened_at)) return 'listened_at is required.'
    }
    return undefined
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x')
      const text = Buffer.concat(chunks).toString('utf8')
      let body: unknown
      try {
        body = text ? JSON.parse(text) : undefined
      } catch {
        body = text
      }
      requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, body })
      if (down) return void res.writeHead(503).end('Service Unavailable')
      if (garbage === 'huge') {
        res.writeHead(200, { 'Content-Type': 'application/json' })
        return void res.end(`{"status":"ok","x":"${'x'.repeat(2 * 1024 * 1024)}"}`)
      }
      if (garbage === 'html') return void res.writeHead(200).end('<html>maintenance</html>')
      if (limited > 0) {
        limited--
        res.writeHead(429, {
          'Content-Type': 'application/json',
          'X-RateLimit-Limit': '30',
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset-In': String(resetIn),
        })
        return void res.end(JSON.stringify({ code: 429, error: 'Too many requests' }))
      }
      if (req.method === 'GET' && url.pathname === '/1/validate-token') {
        const name = user(req)
        return json(
          res,
          200,
          name
            ? { code: 200, message: 'Token valid.', valid: true, user_name: name }
            : { code: 200, message: 'Token invalid.', valid: false },
        )
      }
      if (req.method === 'POST' && url.pathname === '/1/submit-listens') {
        const name = user(req)
        if (!name) return json(res, 401, { code: 401, error: 'Invalid authorization token.' })
        const why = refuse(body)
        if (why) return json(res, 400, { code: 400, error: why })
        const { listen_type, payload } = body as { listen_type: string; payload: Listen[] }
        for (const l of payload) {
          const meta = l.track_metadata as Record<string, unknown>
          if (listen_type === 'playing_now') playingNow.push({ user: name, track_metadata: meta })
          else if (
            !listens.some(
              (s) =>
                s.user === name &&
                s.listened_at === l.listened_at &&
                s.track_metadata.track_name === meta.track_name &&
                s.track_metadata.artist_name === meta.artist_name,
            )
          ) {
            listens.push({ user: name, listened_at: l.listened_at as number, track_metadata: meta })
          }
        }
        const answer = () => {
          if (listen_type !== 'playing_now') accepted.push(body as { listen_type: string; payload: Listen[] })
          json(res, 200, { status: 'ok' })
        }
        if (holdNext && listen_type !== 'playing_now') {
          holdNext = false
          held.push(answer)
          return
        }
        return answer()
      }
      json(res, 404, { code: 404, error: 'Not found' })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url,
    requests,
    listens,
    playingNow,
    accepted,
    /** Submissions of listens (`single`, `import`), in order. */
    submissions: () =>
      requests
        .filter((r) => r.path === '/1/submit-listens')
        .map((r) => r.body as { listen_type: string; payload: Listen[] })
        .filter((b) => b && b.listen_type !== 'playing_now'),
    addToken: (token: string, name: string) => void tokens.set(token, name),
    revoke: (token: string) => void tokens.delete(token),
    setDown: (value: boolean) => void (down = value),
    /** The next `count` requests answer 429 with `X-RateLimit-Reset-In: seconds`. */
    rateLimit: (count: number, seconds: number) => {
      limited = count
      resetIn = seconds
    },
    /** The next answer says it was the last one allowed (`X-RateLimit-Remaining: 0`) for `seconds`. */
    lastAllowedFor: (seconds: number) => {
      lastAllowed = true
      resetIn = seconds
    },
    setGarbage: (kind: 'huge' | 'html' | undefined) => void (garbage = kind),
    /** The next listen submission is stored but not answered (until `release`). */
    holdNextAnswer: () => void (holdNext = true),
    heldCount: () => held.length,
    release: () => held.splice(0).forEach((answer) => answer()),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export type FakeListenBrainz = Awaited<ReturnType<typeof startFakeListenBrainz>>
