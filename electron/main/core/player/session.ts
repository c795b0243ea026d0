import type { KeyValueStore } from '../ports'

/** The one player session: the queue is global, each entry names its song's data source. */
export const SESSION_KEY = 'session'
/** Where a session of one data source was kept before the queue became global. */
export const legacySessionKey = (sourceId: string) => `session:${sourceId}`

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function parse(text: unknown, maxChars: number): unknown {
  if (typeof text !== 'string' || text.length > maxChars) return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    return null
  }
}

/** Each queued song without a data source gets `sourceId` (the source its session was saved under). */
export function stampSessionSource(session: unknown, sourceId: string): unknown {
  if (!isRecord(session) || !isRecord(session.queue) || !Array.isArray(session.queue.entries)) return session
  const entries = session.queue.entries.map((entry: unknown) =>
    isRecord(entry) && isRecord(entry.item) && typeof entry.item.sourceId !== 'string'
      ? { ...entry, item: { ...entry.item, sourceId } }
      : entry,
  )
  return { ...session, queue: { ...session.queue, entries } }
}

/**
 * The saved session (of unknown shape), or null. When there is none yet but sessions were kept per data
 * source, they are folded into one: the active source's (the queue shown last) becomes the session, each
 * of its songs stamped with that source; the other sources' sessions are deleted.
 */
export function readSession(
  store: KeyValueStore,
  activeId: string,
  sourceIds: readonly string[],
  maxChars: number,
): unknown {
  const text = store.get<unknown>(SESSION_KEY)
  if (text !== undefined) return parse(text, maxChars)
  const legacy = parse(store.get<unknown>(legacySessionKey(activeId)), maxChars)
  const migrated = legacy === null ? null : stampSessionSource(legacy, activeId)
  if (migrated !== null) store.set(SESSION_KEY, JSON.stringify(migrated))
  for (const id of new Set([activeId, ...sourceIds])) store.delete(legacySessionKey(id))
  return migrated
}
