import { CadenceError, DataSourceError } from '@shared/errors'
import type { Capabilities, CapabilityState, DataSourceExtension } from '@shared/ipc/contract'
import { DATA_SOURCE_EXTENSIONS } from '@shared/ipc/contract'
import type { EventHub } from '../events'
import type { Logger } from '../log'
import type { KeyValueStore } from '../ports'

/**
 * What each data source offers beyond the API document, learnt by use and never by the server's name.
 * An extension is tried when the user reaches for it; an answer of 404 (HTTP 404, or an envelope with
 * `code: 404`) or 405 (the path is there, not with that method) means the source has no such endpoint:
 * that is remembered for the source (at its address, across restarts) and the app stops offering it. Any
 * other answer, failures included, means the endpoint is there.
 */

/** Where a source's learnt capabilities are kept in the settings store. */
export const capabilitiesKey = (sourceId: string) => `capabilities:${sourceId}`

/** What a person is told an absent extension means, where they would have used it. */
const LACKS: Record<DataSourceExtension, string> = {
  'album-detail': 'This data source has no album pages',
  'song-like-state': 'This data source cannot say whether a single song is liked',
  'playlist-create': 'This data source cannot keep playlists in your account',
  'playlist-songs': 'This data source cannot change the songs of playlists in your account',
  'playlist-subscribe': 'This data source cannot subscribe to playlists',
  'album-like': 'This data source cannot save albums to your library',
  'album-sublist': 'This data source does not list saved albums',
}

/** Whether a failure says the endpoint itself is missing. */
export function isAbsentAnswer(error: unknown): boolean {
  if (!(error instanceof DataSourceError)) return false
  return error.status === 404 || error.code === 404 || error.status === 405
}

export function unavailable(extension: DataSourceExtension): CadenceError {
  return new CadenceError({ kind: 'unavailable', message: LACKS[extension] })
}

export interface CapabilityDeps {
  store: KeyValueStore
  events: EventHub
  log: Logger
  /** The source's current address: what was learnt at another address is forgotten. */
  sourceUrl: (sourceId: string) => string | undefined
  activeSourceId: () => string
}

interface Held {
  url: string
  states: Partial<Record<DataSourceExtension, CapabilityState>>
}

export function createCapabilities(deps: CapabilityDeps) {
  const held = new Map<string, Held>()

  function read(sourceId: string): Held {
    const url = deps.sourceUrl(sourceId) ?? ''
    let entry = held.get(sourceId)
    if (!entry) {
      const stored = deps.store.get<unknown>(capabilitiesKey(sourceId))
      entry = { url, states: {} }
      if (stored && typeof stored === 'object' && (stored as Held).url === url) {
        const absent = (stored as { absent?: unknown }).absent
        if (Array.isArray(absent)) {
          for (const name of absent) {
            if (DATA_SOURCE_EXTENSIONS.includes(name as DataSourceExtension))
              entry.states[name as DataSourceExtension] = 'absent'
          }
        }
      }
      held.set(sourceId, entry)
    }
    // The built-in source's port changes between starts; a new address is a new server.
    if (entry.url !== url) {
      entry.url = url
      entry.states = {}
    }
    return entry
  }

  function snapshot(sourceId: string): Capabilities {
    const { states } = read(sourceId)
    const out = {} as Capabilities
    for (const name of DATA_SOURCE_EXTENSIONS) out[name] = states[name] ?? 'unknown'
    return out
  }

  function set(sourceId: string, extension: DataSourceExtension, state: CapabilityState) {
    const entry = read(sourceId)
    if (entry.states[extension] === state) return
    entry.states[extension] = state
    if (state === 'absent') deps.log.info('data source lacks an extension', { extension })
    const absent = DATA_SOURCE_EXTENSIONS.filter((name) => entry.states[name] === 'absent')
    deps.store.set(capabilitiesKey(sourceId), { url: entry.url, absent })
    if (sourceId === deps.activeSourceId()) {
      deps.events.emit('capabilities:changed', { sourceId, capabilities: snapshot(sourceId) })
    }
  }

  return {
    /** The active source's (or `sourceId`'s) extensions: present, absent or not tried yet. */
    get: (sourceId = deps.activeSourceId()) => snapshot(sourceId),
    has: (sourceId: string, extension: DataSourceExtension) => read(sourceId).states[extension] !== 'absent',
    /**
     * Runs `run` against an extension: at once `unavailable` when the source is known to lack it;
     * remembers the endpoint as absent when the answer says so (and throws `unavailable`), as present when
     * it answered anything else.
     */
    async use<T>(sourceId: string, extension: DataSourceExtension, run: () => Promise<T>): Promise<T> {
      if (read(sourceId).states[extension] === 'absent') throw unavailable(extension)
      try {
        const value = await run()
        set(sourceId, extension, 'present')
        return value
      } catch (error) {
        if (isAbsentAnswer(error)) {
          set(sourceId, extension, 'absent')
          throw unavailable(extension)
        }
        if (error instanceof DataSourceError && !['network', 'timeout', 'cancelled'].includes(error.kind))
          set(sourceId, extension, 'present')
        throw error
      }
    },
    /** A data source was removed. */
    forget(sourceId: string) {
      held.delete(sourceId)
      deps.store.delete(capabilitiesKey(sourceId))
    },
  }
}

export type CapabilityMemory = ReturnType<typeof createCapabilities>
