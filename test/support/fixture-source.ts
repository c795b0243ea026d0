import { json, ok, startFixtureServer } from './fixture-server'

/**
 * A small data source for core tests: QR login (with a phone page that confirms), `/connect/status`
 * checking the Token header, and a few catalogue endpoints that echo what they were asked.
 */
export async function startFixtureSource(options: { ownerName?: string } = {}) {
  const keys = new Map<string, number>()
  const tokens = new Set<string>()
  let n = 0
  const user = { id: 77, name: options.ownerName ?? 'Fixture Owner' }
  const viewer = (header: unknown) => {
    const token = typeof header === 'string' ? header.replace(/^Bearer /, '') : ''
    return tokens.has(token) ? user : null
  }
  const server = await startFixtureServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const q = url.searchParams
    const me = viewer(req.headers.token)
    const denied = () => json(res, { code: -1, message: 'Please log in first', data: null }, 401)
    switch (url.pathname) {
      case '/connect/qr/key': {
        const key = `key${++n}`
        keys.set(key, 0)
        return json(res, ok({ unikey: key }))
      }
      case '/connect/qr/create':
        return json(res, ok({ qrurl: `${server.url}/phone/${q.get('key')}`, qrimg: '' }))
      case '/connect/qr/check': {
        const status = keys.get(q.get('key') ?? '') ?? -1
        const cookie = status === 2 ? `credential-for-${q.get('key')}-0123456789` : ''
        if (status === 2) tokens.add(cookie)
        return json(res, ok({ status, cookie }))
      }
      case '/connect/status':
        return me ? json(res, ok(user)) : denied()
      case '/playlist/list':
        return json(res, ok([{ id: 1, name: `lists of ${q.get('uid')}` }]))
      case '/playlist/recommend':
        return json(res, ok([{ id: 2, name: me ? 'for you' : 'for anyone' }]))
      case '/song/recommend':
        return me ? json(res, ok([{ id: 3 }])) : denied()
      case '/song/detail':
        return json(res, ok({ id: Number(q.get('id')), name: `uid=${q.get('uid')} br=${q.get('br')}` }))
      case '/song/like':
        return me ? json(res, ok({ id: Number(q.get('id')), like: q.get('like') === 'true' })) : denied()
      default:
        if (url.pathname.startsWith('/phone/')) {
          const key = url.pathname.slice('/phone/'.length)
          if (!keys.has(key)) return json(res, {}, 410)
          if (req.method === 'POST') {
            let body = ''
            req.on('data', (chunk) => (body += chunk))
            req.on('end', () => {
              if (new URLSearchParams(body).get('action') === 'confirm') keys.set(key, 2)
              res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>done</p>')
            })
            return
          }
          if (keys.get(key) === 0) keys.set(key, 1)
          return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<form method=post></form>')
        }
        return json(res, { code: -1, message: 'Not found', data: null }, 404)
    }
  })
  return {
    ...server,
    user,
    /** Confirms a key as the phone would. */
    confirm: (key: string) => keys.set(key, 2),
    scan: (key: string) => keys.set(key, 1),
    expireCredentials: () => tokens.clear(),
  }
}
