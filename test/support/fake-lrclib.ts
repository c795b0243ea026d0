import { createServer } from 'node:http'
import type { IncomingHttpHeaders, Server } from 'node:http'

/**
 * A fake LRCLIB on 127.0.0.1, written from lrclib.net/docs: `GET /api/get` (track_name, artist_name,
 * album_name, duration in seconds; a record when all match and the duration is within ±2 s, else 404
 * `TrackNotFound`), `GET /api/get/{id}` and `GET /api/search` (by `q` or track_name / artist_name /
 * album_name: an array of records). Each request is kept in `requests`; `mode` makes it answer garbage,
 * a huge body (with or without its length announced), a 500, or nothing at all.
 */
export interface LrclibRecord {
  id: number
  trackName: string
  artistName: string
  albumName: string
  duration: number
  instrumental: boolean
  plainLyrics: string | null
  syncedLyrics: string | null
}
export interface LrclibRequest {
  path: string
  query: Record<string, string>
  headers: IncomingHttpHeaders
}
export type LrclibMode = 'normal' | 'garbage' | 'huge' | 'huge-chunked' | 'error' | 'wrong-shape' | 'hang'

export function lrclibRecord(over: Partial<LrclibRecord> & { id: number }): LrclibRecord {
  return {
    trackName: 'Blue Hour',
    artistName: 'Mira Vale',
    albumName: 'Evening Songs',
    duration: 200,
    instrumental: false,
    plainLyrics: 'First line\nSecond line',
    syncedLyrics: '[00:01.00] First line\n[00:05.50] Second line',
    ...over,
  }
}

export async function startFakeLrclib(records: LrclibRecord[]) {
  const requests: LrclibRequest[] = []
  let mode: LrclibMode = 'normal'
  const same = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase()
  const has = (a: string | undefined, b: string) => !a || b.toLowerCase().includes(a.toLowerCase())

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const query = Object.fromEntries(url.searchParams)
    requests.push({ path: url.pathname, query, headers: req.headers })
    const json = (status: number, value: unknown) => {
      const body = JSON.stringify(value)
      res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) })
      res.end(body)
    }
    if (mode === 'hang') return // never answers
    if (mode === 'garbage')
      return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('<html>oops')
    if (mode === 'error') return json(500, { code: 500, name: 'InternalError', message: 'down' })
    if (mode === 'wrong-shape') return json(200, { id: 'not a number', trackName: 42 })
    if (mode === 'huge' || mode === 'huge-chunked') {
      // A well-formed record (the first one) padded with an unknown field to 4 MiB: only a cap refuses it.
      const head = JSON.stringify(records[0] ?? {}).slice(0, -1) + ',"padding":"'
      const chunk = 'x'.repeat(64 * 1024)
      const headers: Record<string, string | number> = { 'Content-Type': 'application/json' }
      if (mode === 'huge') headers['Content-Length'] = Buffer.byteLength(head) + chunk.length * 64 + 2
      res.writeHead(200, headers)
      res.write(head)
      for (let i = 0; i < 64; i++) res.write(chunk)
      return void res.end('"}')
    }
    const notFound = () =>
      json(404, { code: 404, name: 'TrackNotFound', message: 'Failed to find specified track' })
    const byId = /^\/api\/get\/(\d+)$/.exec(url.pathname)
    if (byId) {
      const found = records.find((r) => r.id === Number(byId[1]))
      return found ? json(200, found) : notFound()
    }
    if (url.pathname === '/api/get') {
      const duration = Number(query.duration)
      const found = records.find(
        (r) =>
          same(query.track_name, r.trackName) &&
          same(query.artist_name, r.artistName) &&
          same(query.album_name, r.albumName) &&
          Math.abs(r.duration - duration) <= 2,
      )
      return found ? json(200, found) : notFound()
    }
    if (url.pathname === '/api/search') {
      const q = query.q
      const found = records.filter((r) =>
        q
          ? `${r.trackName} ${r.artistName} ${r.albumName}`.toLowerCase().includes(q.toLowerCase())
          : has(query.track_name, r.trackName) &&
            has(query.artist_name, r.artistName) &&
            has(query.album_name, r.albumName),
      )
      return json(200, found)
    }
    json(404, { code: 404, name: 'NotFound', message: 'Not found' })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no address')
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    setMode: (next: LrclibMode) => void (mode = next),
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  }
}
export type FakeLrclib = Awaited<ReturnType<typeof startFakeLrclib>>
