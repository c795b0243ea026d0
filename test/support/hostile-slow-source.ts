import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { forwardRequest } from './proxy-forward'

/**
 * A hostile data source for issue 33, item 5 (one slow answer must not turn the app offline): a proxy on
 * 127.0.0.1 in front of the reference server that answers everything at once, except the `/song/detail`
 * of chosen songs, which it trickles (headers, then one byte a second for 60 s, never a whole answer) or
 * never answers at all; it can also hold every request unanswered, or close its port (connection refused).
 */

export interface HostileSource {
  url: string
  /** `/song/detail` of these song ids: headers at once, then one byte a second for 60 s, never finished. */
  trickle: Set<string>
  /** `/song/detail` of these song ids: the connection is taken, no answer ever comes. */
  silent: Set<string>
  /** Every request held without an answer (a source that takes connections and says nothing). */
  hang: boolean
  /** Requests seen, by path. */
  hits: Map<string, number>
  /** Bytes of the trickled answers sent so far. */
  trickled: () => number
  /** Closes the port: new connections are refused. */
  close: () => Promise<void>
}

export async function startHostileSource(target: string): Promise<HostileSource> {
  const upstream = new URL(target)
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()
  let trickledBytes = 0
  const source: Omit<HostileSource, 'url' | 'close'> = {
    trickle: new Set(),
    silent: new Set(),
    hang: false,
    hits: new Map(),
    trickled: () => trickledBytes,
  }

  const trickle = (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.write('{"code":200,"data":')
    trickledBytes += 19
    let sent = 0
    const timer = setInterval(() => {
      if (++sent > 60) {
        clearInterval(timer)
        timers.delete(timer)
        res.destroy()
        return
      }
      res.write(' ')
      trickledBytes++
    }, 1000)
    timers.add(timer)
    res.on('close', () => {
      clearInterval(timer)
      timers.delete(timer)
    })
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://hostile')
    source.hits.set(url.pathname, (source.hits.get(url.pathname) ?? 0) + 1)
    if (source.hang) return // held: no status line, no headers, until the client gives up
    const id = url.searchParams.get('id') ?? ''
    if (url.pathname === '/song/detail' && source.trickle.has(id)) return trickle(res)
    if (url.pathname === '/song/detail' && source.silent.has(id)) return
    forwardRequest(upstream, req, res)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return Object.assign(source, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        for (const timer of timers) clearInterval(timer)
        for (const socket of sockets) socket.destroy()
        server.close(() => done())
      }),
  })
}
