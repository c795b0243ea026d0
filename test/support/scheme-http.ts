import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'

/**
 * `fetch()` on a custom scheme for the end-to-end browser, carried the way Electron carries it. Electron's
 * `supportFetchAPI` privilege lets a page fetch a privileged scheme: the request goes through Chromium's
 * network stack to main's `protocol.handle`, and the answer's body streams back through a data pipe,
 * with no script on the page's thread per byte. Plain Chromium refuses a scheme it does not know before
 * any request is made, so the page's `fetch` for that scheme is rewritten to the same origin as the page
 * under `PREFIX` (`cadence-media://song/x?br=1` → `<origin>/__scheme/cadence-media/song/x?br=1`), and the
 * renderer's own static server hands those requests to the same handler `protocol.handle` was given,
 * streaming its answer as it comes. The page's CSP (`connect-src 'self'`) allows it as it is.
 */

export const PREFIX = '/__scheme/'

/** Page side: wraps `scope.fetch` so requests on `scheme` go to `origin` under `PREFIX`. */
export function installSchemeFetchOverHttp(
  scope: { fetch: typeof fetch },
  scheme: string,
  origin: string,
): void {
  const realFetch = scope.fetch.bind(scope)
  const from = `${scheme}://`
  const to = `${origin}${PREFIX}${scheme}/`
  scope.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input instanceof Request ? input : String(input), init)
    if (!request.url.startsWith(from)) return realFetch(input, init)
    return realFetch(new Request(to + request.url.slice(from.length), request))
  }
}

/**
 * Node side: a request listener for the static server that answers `PREFIX<scheme>/…` with `handler`
 * (given the request on the scheme, as `protocol.handle` is) and returns true; false for other paths.
 * A handler that throws fails the load (the socket is destroyed, so the page's fetch rejects), as
 * Electron answers a throwing handler.
 */
export function schemeOverHttp(
  scheme: string,
  handler: (request: Request) => Response | Promise<Response>,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const prefix = `${PREFIX}${scheme}/`
  return (req, res) => {
    if (!req.url?.startsWith(prefix)) return false
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers[name] = value
    const url = `${scheme}://${req.url.slice(prefix.length)}`
    const controller = new AbortController()
    res.on('close', () => controller.abort())
    void (async () => {
      const response = await handler(
        new Request(url, { method: req.method, headers, signal: controller.signal }),
      )
      const answer: Record<string, string> = {}
      response.headers.forEach((value, name) => (answer[name] = value))
      res.writeHead(response.status, answer)
      if (!response.body || req.method === 'HEAD') return void res.end()
      const body = Readable.fromWeb(response.body as unknown as NodeReadableStream<Uint8Array>)
      body.on('error', () => res.destroy())
      res.on('close', () => body.destroy())
      body.pipe(res)
    })().catch(() => res.destroy())
    return true
  }
}
