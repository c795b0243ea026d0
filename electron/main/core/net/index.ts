import type { DataSourceInfo } from '@shared/ipc/contract'
import { createGuardedFetch, fetchTransport } from './guarded-fetch'
import type { HostPolicy, LookupAll } from './guarded-fetch'
import { createPinnedTransport } from './pinned-transport'

export { BlockedAddressError, MAX_MEDIA_REDIRECTS, systemLookup } from './guarded-fetch'
export type { HostPolicy, LookupAll } from './guarded-fetch'
export { canonicalAddress, isLocalName, isPublicAddress } from './address'

/** A `fetch` per data source: what that source names is fetched under that source's policy only. */
export type SourceFetch = (sourceId: string) => typeof fetch

/** The hosts a data source may point main at besides public addresses: its own, and the allowed one. */
export function sourceHosts(source: DataSourceInfo | undefined): string[] {
  if (!source?.url) return []
  const hosts: string[] = []
  try {
    hosts.push(new URL(source.url).hostname)
  } catch {
    // No usable address: nothing of its own.
  }
  if (source.localHost) hosts.push(source.localHost)
  return hosts
}

/**
 * Main's fetches of what data sources point at (media, covers), each under the policy of the source
 * that named it. Without an injected `fetch`, connections go through the pinned transport (node:http(s)
 * to the checked addresses); an injected one (tests) is used per hop as it is.
 */
export function createSourceNet(deps: {
  policy: (sourceId: string) => HostPolicy
  lookup?: LookupAll
  fetch?: typeof fetch
}) {
  const pinned = deps.fetch ? undefined : createPinnedTransport()
  const given = deps.fetch
  const guarded = createGuardedFetch({
    lookup: deps.lookup,
    transport: pinned ?? fetchTransport(() => given ?? globalThis.fetch),
  })
  const fetchFor: SourceFetch = (sourceId) => guarded(() => deps.policy(sourceId))
  return {
    fetchFor,
    dispose: () => pinned?.dispose(),
  }
}
