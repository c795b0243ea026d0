import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'

export type FixtureHandler = (req: IncomingMessage, res: ServerResponse) => void

/** A local HTTP server answering with recorded-style fixtures, for API client tests. */
export async function startFixtureServer(handler: FixtureHandler) {
  const requests: Array<{ method: string; url: string; headers: IncomingMessage['headers'] }> = []
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers })
    handler(req, res)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no address')
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  }
}

export function json(res: ServerResponse, body: unknown, status = 200) {
  res.writeHead(status, { 'Content-Type': 'application/json' })
  res.end(typeof body === 'string' ? body : JSON.stringify(body))
}

export const ok = (data: unknown) => ({
  code: 0,
  message: 'Success',
  data,
  timestamp: new Date().toISOString(),
})
