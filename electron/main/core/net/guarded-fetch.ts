import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { canonicalAddress, isLocalName, isPublicAddress } from './address'
import type { HopRequest, Transport } from './pinned-transport'

/** Redirects followed for one fetch of media or a cover (each hop is checked). */
export const MAX_MEDIA_REDIRECTS = 5

/** Every address a name resolves to (node:dns `lookup` with `all: true` in the app). */
export type LookupAll = (hostname: string) => Promise<Array<{ address: string; family: number }>>

export const systemLookup: LookupAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true })

/**
 * Where a data source may point main besides the public internet: its own host, and the one more local
 * host the user allowed for it (a NAS beside a home server). Names or IP literals.
 */
export interface HostPolicy {
  hosts: string[]
}

/** A data source pointed main at this computer or the user's network: nothing was requested there. */
export class BlockedAddressError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BlockedAddressError'
  }
}

const bare = (host: string) =>
  host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')

async function resolve(lookup: LookupAll, host: string): Promise<string[]> {
  if (isIP(host)) return [host]
  try {
    return (await lookup(host)).map((a) => a.address)
  } catch (error) {
    throw new TypeError(`fetch failed: ${host} could not be resolved`, { cause: error })
  }
}

/**
 * The addresses of `url`'s host that `policy` lets main connect to: public ones (not for names such as
 * `*.local` or `localhost`, which only mean the local network), and any of the source's own hosts'.
 * None: `BlockedAddressError`.
 */
export async function allowedAddresses(url: URL, policy: HostPolicy, lookup: LookupAll): Promise<string[]> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BlockedAddressError(`Only http and https addresses are fetched (not ${url.protocol})`)
  }
  const host = bare(url.hostname)
  const own = policy.hosts.map(bare).filter(Boolean)
  const addresses = await resolve(lookup, host)
  // The source's own host (or the allowed one) by name: wherever it resolves, as the API client's calls do.
  if (own.includes(host)) return addresses
  const local = isLocalName(host)
  let ownAddresses: Set<string> | undefined
  const allowed: string[] = []
  for (const address of addresses) {
    if (!local && isPublicAddress(address)) {
      allowed.push(address)
      continue
    }
    ownAddresses ??= new Set(
      (await Promise.all(own.map((h) => resolve(lookup, h).catch(() => [] as string[]))))
        .flat()
        .map((a) => canonicalAddress(a) ?? a),
    )
    if (ownAddresses.has(canonicalAddress(address) ?? address)) allowed.push(address)
  }
  if (!allowed.length) {
    const where = addresses[0] && addresses[0] !== host ? `${url.host} (${addresses[0]})` : url.host
    throw new BlockedAddressError(
      `The data source pointed at ${where}, an address on this computer or your network that is not its own; Cadence did not fetch it`,
    )
  }
  return allowed
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

export interface GuardDeps {
  lookup?: LookupAll
  /** One request pinned to checked addresses (`createPinnedTransport()`). */
  transport: Transport
  maxRedirects?: number
}

/**
 * A `fetch` for what a data source points main at (media, covers): GET or HEAD, redirects followed by
 * hand, at most `maxRedirects`, each hop's host resolved and checked against the source's policy before
 * anything is sent, and the connection made to the checked addresses only.
 */
export function createGuardedFetch(deps: GuardDeps) {
  const lookup = deps.lookup ?? systemLookup
  const maxRedirects = deps.maxRedirects ?? MAX_MEDIA_REDIRECTS
  return (policy: () => HostPolicy): typeof fetch =>
    async (input, init) => {
      const request = input instanceof Request ? input : undefined
      let url = new URL(request ? request.url : String(input))
      const method = (init?.method ?? request?.method ?? 'GET').toUpperCase()
      if (method !== 'GET' && method !== 'HEAD') {
        throw new TypeError(`Only GET and HEAD are sent to a data source's media (not ${method})`)
      }
      const hop: HopRequest = {
        method: method as HopRequest['method'],
        headers: new Headers(init?.headers ?? request?.headers),
        signal: init?.signal ?? request?.signal ?? undefined,
      }
      for (let hops = 0; ; hops++) {
        const addresses = await allowedAddresses(url, policy(), lookup)
        hop.signal?.throwIfAborted()
        const response = await deps.transport(url, hop, addresses)
        const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null
        if (location === null) return response
        await response.body?.cancel().catch(() => undefined)
        if (hops >= maxRedirects) throw new TypeError(`fetch failed: more than ${maxRedirects} redirects`)
        const next = new URL(location, url)
        if (next.origin !== url.origin) hop.headers.delete('authorization')
        url = next
      }
    }
}

/** An injected `fetch` (tests) as the transport: asked not to follow redirects; it connects where it will. */
export const fetchTransport =
  (inner: () => typeof fetch): Transport =>
  (url, request) =>
    inner()(url.href, {
      method: request.method,
      headers: request.headers,
      signal: request.signal,
      redirect: 'manual',
    })
