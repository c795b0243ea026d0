import { createHash, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Last.fm's API on loopback, written from its documentation (last.fm/api: "Desktop Application
 * Authentication", "Scrobbling", track.scrobble, track.updateNowPlaying, the error codes): form-encoded
 * POSTs to `/2.0/` answered in JSON (`format=json`), every call's `api_sig` checked (error 13 when it is
 * not the documented MD5), `auth.getToken` → the person allows the token on `/api/auth/` (a GET, as the
 * browser does) → `auth.getSession` once, `sk` checked (error 9), at most 50 scrobbles a request. The test
 * steers it: an error code for the next calls, down, a session revoked.
 */

/** The documented signature, computed here on its own (not the app's code). */
function documentedSignature(params: Record<string, string>, secret: string) {
  let text = ''
  for (const name of Object.keys(params).sort()) {
    if (name === 'format' || name === 'callback' || name === 'api_sig') continue
    text += name + params[name]
  }
  return createHash('md5')
    .update(Buffer.from(text + secret, 'utf8'))
    .digest('hex')
}

export interface Scrobble {
  user: string
  artist: string
  track: string
  timestamp: number
  album?: string
  duration?: string
  chosenByUser?: string
}

export async function startFakeLastfm(options: { apiKey: string; secret: string; user?: string }) {
  const user = options.user ?? 'rj'
  /** Every API call's parameters, in order. */
  const calls: Array<Record<string, string>> = []
  const scrobbles: Scrobble[] = []
  const nowPlaying: Array<Record<string, string>> = []
  const tokens = new Map<string, 'issued' | 'allowed' | 'used'>()
  const sessions = new Set<string>()
  let failures: Array<{ code: number; method?: string }> = []
  let down = false

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' })
    res.end(JSON.stringify(body))
  }
  const error = (res: ServerResponse, code: number, message: string) =>
    json(res, code === 29 ? 429 : 400, { error: code, message })

  function api(res: ServerResponse, p: Record<string, string>) {
    if (p.api_key !== options.apiKey) return error(res, 10, 'Invalid API key')
    if (p.api_sig !== documentedSignature(p, options.secret)) {
      return error(res, 13, 'Invalid method signature supplied')
    }
    const failure = failures.findIndex((f) => !f.method || f.method === p.method)
    if (failure >= 0) {
      const [f] = failures.splice(failure, 1)
      return error(res, f.code, `Failure ${f.code}`)
    }
    switch (p.method) {
      case 'auth.getToken': {
        const token = randomBytes(16).toString('hex')
        tokens.set(token, 'issued')
        return json(res, 200, { token })
      }
      case 'auth.getSession': {
        const state = tokens.get(p.token)
        if (state === undefined || state === 'used')
          return error(res, 4, 'Invalid authentication token supplied')
        if (state === 'issued')
          return error(res, 14, 'Unauthorized Token - This token has not been authorized')
        tokens.set(p.token, 'used')
        const key = randomBytes(16).toString('hex')
        sessions.add(key)
        return json(res, 200, { session: { name: user, key, subscriber: 0 } })
      }
      case 'track.updateNowPlaying':
        if (!sessions.has(p.sk)) return error(res, 9, 'Invalid session key - Please re-authenticate')
        nowPlaying.push(p)
        return json(res, 200, { nowplaying: { track: { '#text': p.track }, artist: { '#text': p.artist } } })
      case 'track.scrobble': {
        if (!sessions.has(p.sk)) return error(res, 9, 'Invalid session key - Please re-authenticate')
        const count = Object.keys(p).filter((k) => /^timestamp\[\d+\]$/.test(k)).length
        if (count === 0 || count > 50) return error(res, 6, 'Invalid parameters')
        for (let i = 0; i < count; i++) {
          scrobbles.push({
            user,
            artist: p[`artist[${i}]`],
            track: p[`track[${i}]`],
            timestamp: Number(p[`timestamp[${i}]`]),
            ...(p[`album[${i}]`] !== undefined ? { album: p[`album[${i}]`] } : {}),
            ...(p[`duration[${i}]`] !== undefined ? { duration: p[`duration[${i}]`] } : {}),
            ...(p[`chosenByUser[${i}]`] !== undefined ? { chosenByUser: p[`chosenByUser[${i}]`] } : {}),
          })
        }
        return json(res, 200, { scrobbles: { '@attr': { accepted: count, ignored: 0 }, scrobble: [] } })
      }
      default:
        return error(res, 3, 'Invalid Method - No method with that name in this package')
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x')
      if (req.method === 'GET' && url.pathname === '/api/auth/') {
        // The page where the person allows the app: here, visiting it allows it.
        const token = url.searchParams.get('token') ?? ''
        const ok = url.searchParams.get('api_key') === options.apiKey && tokens.get(token) === 'issued'
        if (ok) tokens.set(token, 'allowed')
        res.writeHead(ok ? 200 : 400, { 'Content-Type': 'text/html' })
        return void res.end(ok ? '<p>Application authenticated</p>' : '<p>Invalid</p>')
      }
      if (down) return void res.writeHead(503).end('Service Unavailable')
      if (req.method !== 'POST' || url.pathname !== '/2.0/') return error(res, 3, 'Invalid Method')
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
        return error(res, 6, 'Invalid parameters')
      }
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')))
      calls.push(params)
      api(res, params)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    root: `${base}/2.0/`,
    authPage: `${base}/api/auth/`,
    calls,
    scrobbles,
    nowPlaying,
    documentedSignature,
    /** The next call (of `method`, or any) answers error `code`, `times` times. */
    failNext: (code: number, times = 1, method?: string) => {
      for (let i = 0; i < times; i++) failures.push({ code, method })
    },
    setDown: (value: boolean) => void (down = value),
    revokeSessions: () => sessions.clear(),
    /** The session keys issued and still valid. */
    sessionKeys: () => [...sessions],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
    reset: () => {
      failures = []
    },
  }
}

export type FakeLastfm = Awaited<ReturnType<typeof startFakeLastfm>>
