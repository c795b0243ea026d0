import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { forwardRequest } from './proxy-forward'

/**
 * An HTTP proxy in front of a data source that misbehaves on request, per path: it passes, answers late,
 * cuts the body short, answers with an HTML 502 page, with a 200 that is not JSON, with a JSON body that is
 * not the envelope, with a success envelope around malformed `data`, or drops the connection. `stop()` closes the port (connection refused) and `resume()`
 * opens the same port again.
 */

export type FaultMode =
  | 'pass'
  /** Waits `ms` before passing the request on. */
  | { delay: number }
  /** Announces the full length, sends half the body, then closes the socket. */
  | 'truncate'
  /** An nginx-style HTML 502 page. */
  | 'html-502'
  /** 200 with a plain-text body. */
  | 'non-json'
  /** 200 JSON that is not the envelope (and a `data` of the wrong type). */
  | 'garbage-envelope'
  /** Closes the socket without answering. */
  | 'reset'
  /** The data source's own refusal: HTTP 200 with the envelope `{ code: -1, message }`, as real servers do. */
  | { refuse: string }
  /** A well-formed success envelope around this `data` (e.g. `null` for an id the server does not know). */
  | { data: unknown }

export interface FaultProxy {
  url: string
  /**
   * Sets the mode for one path (`/playlist/recommend`), for one path with a query parameter
   * (`/song/url?id=7`: any request to the path carrying that value), or for every path without its own
   * with `*`.
   */
  set(path: string, mode: FaultMode): void
  /** Back to passing everything. */
  clear(): void
  /** Requests seen, by path. */
  readonly hits: Map<string, number>
  /** Closes the listening port: new connections are refused, open ones are dropped. */
  stop(): Promise<void>
  /** Listens on the same port again. */
  resume(): Promise<void>
  close(): Promise<void>
}

const HTML_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target)
  const modes = new Map<string, FaultMode>()
  const hits = new Map<string, number>()
  const sockets = new Set<Socket>()

  const modeFor = (url: URL): FaultMode => {
    for (const [key, mode] of modes) {
      const [path, query] = key.split('?')
      if (!query || path !== url.pathname) continue
      const wanted = new URLSearchParams(query)
      if ([...wanted].every(([name, value]) => url.searchParams.get(name) === value)) return mode
    }
    return modes.get(url.pathname) ?? modes.get('*') ?? 'pass'
  }

  function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://proxy')
    const path = url.pathname
    hits.set(path, (hits.get(path) ?? 0) + 1)
    const mode = modeFor(url)
    if (mode === 'pass') return forwardRequest(upstream, req, res)
    if (typeof mode === 'object' && 'data' in mode) {
      res.writeHead(200, { 'content-type': 'application/json' })
      return void res.end(JSON.stringify({ code: 200, message: 'success', data: mode.data }))
    }
    if (typeof mode === 'object' && 'refuse' in mode) {
      res.writeHead(200, { 'content-type': 'application/json' })
      return void res.end(JSON.stringify({ code: -1, message: mode.refuse, data: null }))
    }
    if (typeof mode === 'object') {
      const timer = setTimeout(() => forwardRequest(upstream, req, res), mode.delay)
      res.on('close', () => clearTimeout(timer))
      return
    }
    switch (mode) {
      case 'truncate':
        return forwardRequest(upstream, req, res, (status, headers, body) => {
          res.writeHead(status, {
            'content-type': headers['content-type'] ?? 'application/json',
            'content-length': body.length,
          })
          res.write(body.subarray(0, Math.floor(body.length / 2)))
          setTimeout(() => res.destroy(), 20)
        })
      case 'html-502':
        res.writeHead(502, { 'content-type': 'text/html' })
        return void res.end(HTML_502)
      case 'non-json':
        res.writeHead(200, { 'content-type': 'text/plain' })
        return void res.end('OK')
      case 'garbage-envelope':
        res.writeHead(200, { 'content-type': 'application/json' })
        return void res.end(JSON.stringify({ status: 'ok', result: { items: 'nope' }, data: 'garbage' }))
      case 'reset':
        return void req.socket.destroy()
    }
  }

  let server: Server | undefined
  const listen = (port: number) =>
    new Promise<number>((done, fail) => {
      const created = createServer(handle)
      server = created
      created.on('connection', (socket) => {
        sockets.add(socket)
        socket.on('close', () => sockets.delete(socket))
      })
      created.once('error', fail)
      created.listen(port, '127.0.0.1', () => {
        const address = created.address()
        done(typeof address === 'object' && address ? address.port : port)
      })
    })
  const shut = () =>
    new Promise<void>((done) => {
      for (const socket of sockets) socket.destroy()
      if (!server?.listening) return done()
      server.close(() => done())
    })

  const port = await listen(0)
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    set: (path, mode) => void modes.set(path, mode),
    clear: () => modes.clear(),
    stop: shut,
    resume: async () => {
      if (!server?.listening) await listen(port)
    },
    close: shut,
  }
}
