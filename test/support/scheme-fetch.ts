/**
 * `fetch()` on a custom scheme for the test browsers. Electron's `supportFetchAPI` and `corsEnabled`
 * privileges let a page fetch a privileged scheme and read the answer; plain Chromium refuses any
 * scheme it does not know before a request is made (and interception never sees it). So the stand-in
 * and the end-to-end preload wrap the page's `fetch` for that scheme only: the request crosses a
 * Playwright binding to the same handler `protocol.handle` was given, and the answer comes back whole
 * (status, headers, body). Everything else goes to the real `fetch`.
 */

/** One request as it crosses the binding (JSON). */
interface WireRequest {
  url: string
  method: string
  headers: Record<string, string>
}
/** One answer as it crosses back (JSON; the body in base64). */
interface WireResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/** Page side: wraps `scope.fetch` so requests on `scheme` go through `binding`. */
export function installSchemeFetch(
  scope: { fetch: typeof fetch },
  scheme: string,
  binding: (request: string) => Promise<string>,
): void {
  const realFetch = scope.fetch.bind(scope)
  const prefix = `${scheme}:`
  scope.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input instanceof Request ? input : String(input), init)
    if (!request.url.startsWith(prefix)) return realFetch(input, init)
    const headers: Record<string, string> = {}
    request.headers.forEach((value, name) => (headers[name] = value))
    const wire: WireRequest = { url: request.url, method: request.method, headers }
    const answer = JSON.parse(await binding(JSON.stringify(wire))) as WireResponse | { error: string }
    if ('error' in answer) throw new TypeError(`Failed to fetch (${answer.error})`)
    const binary = atob(answer.body)
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    const nullBody = answer.status === 204 || answer.status === 304 || request.method === 'HEAD'
    return new Response(nullBody ? null : bytes, { status: answer.status, headers: answer.headers })
  }
}

/** Node side: answers one wire request with the scheme's handler. */
export async function answerSchemeFetch(
  handler: (request: Request) => Response | Promise<Response>,
  message: string,
): Promise<string> {
  try {
    const wire = JSON.parse(message) as WireRequest
    const response = await handler(new Request(wire.url, { method: wire.method, headers: wire.headers }))
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => (headers[name] = value))
    const body = Buffer.from(await response.arrayBuffer()).toString('base64')
    return JSON.stringify({ status: response.status, headers, body } satisfies WireResponse)
  } catch (error) {
    return JSON.stringify({ error: String(error) })
  }
}
