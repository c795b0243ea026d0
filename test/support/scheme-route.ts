import type { Route } from 'playwright-core'

/**
 * Serves a Playwright route from a `protocol.handle`-style handler (a `Request` in, a `Response` out), the
 * way Electron routes a custom scheme into main. Chromium hands a page's media requests on an unknown
 * scheme to request interception, so `<audio src="cadence-media://…">` reaches the handler; it does not
 * for `fetch()` (Blink refuses schemes it does not know before any request is made), which Electron's
 * `supportFetchAPI` privilege allows. Playwright fulfils with a whole body, so the answer is read before it
 * is sent: the streaming itself is tested on the handler.
 */
export async function fulfilFromHandler(
  route: Route,
  handler: (request: Request) => Response | Promise<Response>,
): Promise<void> {
  const asked = route.request()
  let response: Response
  try {
    response = await handler(new Request(asked.url(), { method: asked.method(), headers: asked.headers() }))
  } catch {
    // Electron answers a throwing handler as a failed load.
    await route.abort('failed').catch(() => undefined)
    return
  }
  const body = Buffer.from(await response.arrayBuffer())
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => (headers[name] = value))
  await route.fulfill({ status: response.status, headers, body }).catch(() => undefined)
}
