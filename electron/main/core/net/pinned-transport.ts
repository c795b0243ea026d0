import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { Readable } from 'node:stream'

/** One request of a guarded fetch: GET or HEAD, its headers and signal. */
export interface HopRequest {
  method: 'GET' | 'HEAD'
  headers: Headers
  signal?: AbortSignal
}

/**
 * Sends one request (no redirect followed) to `url`, connecting only to `addresses` (the ones just
 * checked), and answers what came back, a 3xx included.
 */
export type Transport = (url: URL, request: HopRequest, addresses: string[]) => Promise<Response>

/** Statuses whose answer has no body. */
const NULL_BODY = new Set([101, 204, 205, 304])

/**
 * A lookup that answers only the checked addresses, whatever the name resolves to now: the connection
 * goes where the check looked, so a name that changes its answer between check and connect (DNS
 * rebinding) reaches nothing new.
 */
function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  return (_hostname, options, callback) => {
    if (options.all) callback(null, entries)
    else callback(null, entries[0]!.address, entries[0]!.family)
  }
}

/** Sockets are shared only between requests pinned to the same addresses. */
const pinnedName = (name: string, options: unknown) =>
  `${name}|${(options as { pinned?: string }).pinned ?? ''}`
class PinnedHttpAgent extends http.Agent {
  override getName(options: http.ClientRequestArgs = {}): string {
    return pinnedName(super.getName(options), options)
  }
}
class PinnedHttpsAgent extends https.Agent {
  override getName(options: https.RequestOptions = {}): string {
    return pinnedName(super.getName(options), options)
  }
}

/**
 * The guard's own network: node:http(s) with a lookup pinned to the checked addresses (Node's `fetch`
 * takes no lookup of its own). `dispose()` closes the idle connections.
 */
export function createPinnedTransport(): Transport & { dispose(): void } {
  const agents = {
    'http:': new PinnedHttpAgent({ keepAlive: true, maxSockets: 16 }),
    'https:': new PinnedHttpsAgent({ keepAlive: true, maxSockets: 16 }),
  }
  const transport = (url: URL, request: HopRequest, addresses: string[]) =>
    new Promise<Response>((resolve, reject) => {
      if (!addresses.length) throw new TypeError('No address to connect to')
      const secure = url.protocol === 'https:'
      const headers: Record<string, string> = {}
      request.headers.forEach((value, name) => (headers[name] = value))
      const options: https.RequestOptions & { pinned: string } = {
        method: request.method,
        headers,
        agent: secure ? agents['https:'] : agents['http:'],
        lookup: pinnedLookup(addresses),
        pinned: addresses.join(','),
        signal: request.signal,
      }
      const req = (secure ? https : http).request(url, options, (res) => {
        try {
          const answer = new Headers()
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
            answer.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!)
          }
          const status = res.statusCode ?? 0
          const empty = request.method === 'HEAD' || NULL_BODY.has(status)
          if (empty) res.resume()
          const body = empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>)
          resolve(new Response(body, { status, statusText: res.statusMessage ?? '', headers: answer }))
        } catch (error) {
          res.destroy()
          reject(new TypeError('fetch failed', { cause: error }))
        }
      })
      req.on('error', (error) =>
        reject(request.signal?.aborted ? error : new TypeError('fetch failed', { cause: error })),
      )
      req.end()
    })
  return Object.assign(transport, {
    dispose() {
      agents['http:'].destroy()
      agents['https:'].destroy()
    },
  })
}
