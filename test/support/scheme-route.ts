import type { BrowserContext, CDPSession, Page, Route } from 'playwright-core'

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
  const answer = await answerOf(handler, {
    url: asked.url(),
    method: asked.method(),
    headers: asked.headers(),
  })
  if (!answer) return void (await route.abort('failed').catch(() => undefined))
  const headers = Object.fromEntries(answer.headers.map(({ name, value }) => [name, value]))
  await route.fulfill({ status: answer.status, headers, body: answer.body }).catch(() => undefined)
}

/**
 * The handler's whole answer to a request (Playwright and DevTools fulfil with a whole body), or undefined
 * when it threw: Electron answers a throwing handler as a failed load.
 */
async function answerOf(
  handler: (request: Request) => Response | Promise<Response>,
  request: { url: string; method: string; headers: Record<string, string> },
): Promise<{ status: number; headers: { name: string; value: string }[]; body: Buffer } | undefined> {
  let response: Response
  try {
    response = await handler(new Request(request.url, { method: request.method, headers: request.headers }))
  } catch {
    return undefined
  }
  const body = Buffer.from(await response.arrayBuffer())
  const headers: { name: string; value: string }[] = []
  response.headers.forEach((value, name) => headers.push({ name, value }))
  return { status: response.status, headers, body }
}

/**
 * Serves a page's loads on `scheme` from `handler` through Chromium's request interception, for the
 * scheme's requests only (`Fetch.enable` with the scheme's pattern, on a DevTools session of each page).
 * Playwright's `route` pauses every request of the context while any route is set (one pattern for all:
 * it matches in its own process), and so held each of the page's media fetches over HTTP for a round trip
 * to the test process that Electron's `protocol.handle` never makes (4–9 ms a range by median). `attach` a page
 * before it loads anything; pages opened later are attached as they open.
 */
export function interceptScheme(
  context: BrowserContext,
  scheme: string,
  handler: (request: Request) => Response | Promise<Response>,
): { attach(page: Page): Promise<void> } {
  const attached = new WeakMap<Page, Promise<void>>()
  const attach = (page: Page) => {
    let done = attached.get(page)
    if (done) return done
    done = (async () => {
      const session = await context.newCDPSession(page)
      session.on('Fetch.requestPaused', ({ requestId, request }) => void answer(session, requestId, request))
      await session.send('Fetch.enable', {
        patterns: [{ urlPattern: `${scheme}:*`, requestStage: 'Request' }],
      })
    })().catch(() => undefined)
    attached.set(page, done)
    return done
  }
  const answer = async (
    session: CDPSession,
    requestId: string,
    request: { url: string; method: string; headers: Record<string, string> },
  ) => {
    const answer = await answerOf(handler, request)
    const sent = answer
      ? session.send('Fetch.fulfillRequest', {
          requestId,
          responseCode: answer.status,
          responseHeaders: answer.headers,
          ...(answer.body.length ? { body: answer.body.toString('base64') } : {}),
        })
      : session.send('Fetch.failRequest', { requestId, errorReason: 'Failed' })
    await sent.catch(() => undefined)
  }
  context.on('page', (page) => void attach(page))
  return { attach }
}
