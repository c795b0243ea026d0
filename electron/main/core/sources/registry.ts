import type { DataSourceInfo, DataSourceState, SourceList } from '@shared/ipc/contract'
import { CadenceError, DataSourceError } from '@shared/errors'
import { createApiClient } from '../api/client'
import type { KeyValueStore } from '../ports'
import { validateLocalHost, validateSourceUrl } from './url'

/**
 * The list of data sources: the built-in one first (id `builtin`, its URL known only at run time), then
 * the ones the user added by URL. One is active.
 */

export const BUILTIN_ID = 'builtin'
export const SOURCES_KEY = 'sources'

interface StoredSource {
  id: string
  name: string
  url: string
  /** One more host of the user's network its media and covers may come from (`DataSourceInfo.localHost`). */
  localHost?: string
}
interface StoredSources {
  v: 1
  added: StoredSource[]
  activeId: string
}

export interface SourceRegistry {
  list(): SourceList
  get(id: string): DataSourceInfo | undefined
  active(): DataSourceInfo
  /** Validates, probes (unless `probe: false`) and adds; an address already in the list is returned as is. */
  add(input: { url: string; name?: string }): Promise<DataSourceInfo>
  remove(id: string): void
  setActive(id: string): void
  /** The one more local host an added source may point media and covers at (`''`: none). */
  setLocalHost(id: string, host: string): DataSourceInfo
  /** The name an added source is shown by (the built-in one keeps its own). */
  rename(id: string, name: string): DataSourceInfo
  setBuiltin(url: string | undefined, state: DataSourceState): void
}

export interface RegistryDeps {
  store: KeyValueStore
  fetch?: typeof fetch
  probe?: boolean
  probeTimeoutMs?: number
  newId?: () => string
}

/** Asks an address whether it speaks the data-source API. */
export async function probeSource(url: string, deps: { fetch?: typeof fetch; timeoutMs?: number } = {}) {
  const api = createApiClient({
    baseUrl: url,
    getCredential: () => undefined,
    fetch: deps.fetch,
    timeoutMs: deps.timeoutMs ?? 8000,
    retryDelayMs: 0,
    cacheTtlMs: 0,
  })
  try {
    await api.qrKey()
    return
  } catch (first) {
    if (first instanceof DataSourceError && (first.kind === 'network' || first.kind === 'timeout')) {
      throw new CadenceError({
        kind: 'unavailable',
        // The client's own message says the same thing with this address again: not repeated here.
        message: `Cannot reach ${url}: check the address and that the server is running`,
      })
    }
    try {
      await api.recommendPlaylists(1)
    } catch {
      throw new CadenceError({
        kind: 'invalid-argument',
        message: `${url} answered, but it is not a music data source (no /connect/qr/key or /playlist/recommend)`,
      })
    }
  }
}

export function createSourceRegistry(deps: RegistryDeps): SourceRegistry {
  const newId = deps.newId ?? (() => `src-${Math.random().toString(36).slice(2, 10)}`)
  let builtinUrl: string | undefined
  let builtinState: DataSourceState = 'starting'

  const read = (): StoredSources => {
    const raw = deps.store.get<Partial<StoredSources>>(SOURCES_KEY)
    const added = Array.isArray(raw?.added)
      ? raw.added.filter(
          (s): s is StoredSource =>
            !!s && typeof s.id === 'string' && typeof s.url === 'string' && typeof s.name === 'string',
        )
      : []
    const activeId =
      typeof raw?.activeId === 'string' && added.some((s) => s.id === raw.activeId)
        ? raw.activeId
        : BUILTIN_ID
    return { v: 1, added, activeId }
  }
  const write = (value: StoredSources) => deps.store.set(SOURCES_KEY, value)

  const builtin = (): DataSourceInfo => ({
    id: BUILTIN_ID,
    name: 'Built-in library',
    url: builtinUrl ?? '',
    builtin: true,
    insecure: false,
    state: builtinState,
  })
  const info = (s: StoredSource): DataSourceInfo => ({
    id: s.id,
    name: s.name,
    url: s.url,
    builtin: false,
    insecure: validateSafe(s.url),
    ...(typeof s.localHost === 'string' && s.localHost ? { localHost: s.localHost } : {}),
  })

  const registry: SourceRegistry = {
    list() {
      const stored = read()
      return { sources: [builtin(), ...stored.added.map(info)], activeId: stored.activeId }
    },
    get: (id) => registry.list().sources.find((s) => s.id === id),
    active() {
      const list = registry.list()
      return list.sources.find((s) => s.id === list.activeId) ?? builtin()
    },
    async add(input) {
      const { url } = validateSourceUrl(input.url)
      const existing = registry.list().sources.find((s) => !s.builtin && s.url === url)
      if (existing) return existing
      if (builtinUrl && url === builtinUrl) return builtin()
      if (deps.probe !== false) await probeSource(url, { fetch: deps.fetch, timeoutMs: deps.probeTimeoutMs })
      const stored = read()
      const source: StoredSource = { id: newId(), name: input.name?.trim() || new URL(url).host, url }
      stored.added.push(source)
      write(stored)
      return info(source)
    },
    remove(id) {
      if (id === BUILTIN_ID) {
        throw new CadenceError({
          kind: 'invalid-argument',
          message: 'The built-in data source cannot be removed',
        })
      }
      const stored = read()
      if (!stored.added.some((s) => s.id === id)) {
        throw new CadenceError({ kind: 'invalid-argument', message: 'No such data source' })
      }
      stored.added = stored.added.filter((s) => s.id !== id)
      if (stored.activeId === id) stored.activeId = BUILTIN_ID
      write(stored)
    },
    setActive(id) {
      const stored = read()
      if (id !== BUILTIN_ID && !stored.added.some((s) => s.id === id)) {
        throw new CadenceError({ kind: 'invalid-argument', message: 'No such data source' })
      }
      stored.activeId = id
      write(stored)
    },
    setLocalHost(id, host) {
      if (id === BUILTIN_ID) {
        throw new CadenceError({
          kind: 'invalid-argument',
          message: 'The built-in data source serves only its own files',
        })
      }
      const localHost = validateLocalHost(host)
      const stored = read()
      const source = stored.added.find((s) => s.id === id)
      if (!source) throw new CadenceError({ kind: 'invalid-argument', message: 'No such data source' })
      if (localHost) source.localHost = localHost
      else delete source.localHost
      write(stored)
      return info(source)
    },
    rename(id, name) {
      if (id === BUILTIN_ID) {
        throw new CadenceError({ kind: 'invalid-argument', message: 'The built-in library keeps its name' })
      }
      const stored = read()
      const source = stored.added.find((s) => s.id === id)
      if (!source) throw new CadenceError({ kind: 'invalid-argument', message: 'No such data source' })
      const trimmed = name.trim()
      if (!trimmed)
        throw new CadenceError({ kind: 'invalid-argument', message: 'A data source needs a name' })
      source.name = trimmed
      write(stored)
      return info(source)
    },
    setBuiltin(url, state) {
      builtinUrl = url?.replace(/\/+$/, '')
      builtinState = state
    },
  }
  return registry
}

function validateSafe(url: string): boolean {
  try {
    return validateSourceUrl(url).insecure
  } catch {
    return true
  }
}
