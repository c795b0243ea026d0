import { createServer, request } from 'node:http'
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/**
 * A slow link in front of a data source: answers under `/media/` are sent at `bytesPerSecond` (in
 * 50 ms slices), everything else passes as it is. It listens before it knows where to forward (`target`),
 * so a data source can be started with it as its public address. `stop()` drops every connection and
 * closes the port: the source is gone mid-answer, as a stopped server is.
 */
export interface ThrottleProxy {
  url: string
  /** Where requests go (set once the data source behind it is up). */
  target: string
  /** Bytes of media sent so far (the body only), in all. */
  readonly mediaBytes: number
  stop(): Promise<void>
}

const SLICE_MS = 50

export async function startThrottleProxy(bytesPerSecond: number): Promise<ThrottleProxy> {
  const sockets = new Set<Socket>()
  let mediaBytes = 0
  let stopped = false
  const proxy = { target: '' }

  function send(answer: IncomingMessage, res: ServerResponse) {
    const slice = Math.max(1, Math.round((bytesPerSecond * SLICE_MS) / 1000))
    const pending: Buffer[] = []
    let ended = false
    const timer = setInterval(() => {
      let budget = slice
      while (budget > 0 && pending.length) {
        const head = pending[0]
        const piece = head.subarray(0, budget)
        if (piece.length === head.length) pending.shift()
        else pending[0] = head.subarray(budget)
        budget -= piece.length
        mediaBytes += piece.length
        res.write(piece)
      }
      if (ended && !pending.length) {
        clearInterval(timer)
        res.end()
      }
    }, SLICE_MS)
    answer.on('data', (chunk: Buffer) => pending.push(chunk))
    answer.on('end', () => (ended = true))
    res.on('close', () => {
      clearInterval(timer)
      answer.destroy()
    })
  }

  function handle(req: IncomingMessage, res: ServerResponse) {
    if (stopped || !proxy.target) return void req.socket.destroy()
    const upstream = new URL(proxy.target)
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers as OutgoingHttpHeaders)
        if ((req.url ?? '').startsWith('/media/')) send(answer, res)
        else answer.pipe(res)
      },
    )
    out.on('error', () => res.destroy())
    req.pipe(out)
  }

  const server: Server = createServer(handle)
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  const port = await new Promise<number>((done, fail) => {
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      done(typeof address === 'object' && address ? address.port : 0)
    })
  })
  return {
    url: `http://127.0.0.1:${port}`,
    get target() {
      return proxy.target
    },
    set target(value: string) {
      proxy.target = value
    },
    get mediaBytes() {
      return mediaBytes
    },
    stop: () =>
      new Promise<void>((done) => {
        stopped = true
        for (const socket of sockets) socket.destroy()
        if (!server.listening) return done()
        server.close(() => done())
      }),
  }
}
