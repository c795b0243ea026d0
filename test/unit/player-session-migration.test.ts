import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '@main/core'
import { SESSION_KEY, legacySessionKey, readSession, stampSessionSource } from '@main/core/player/session'

/** The one player session, and the per-source sessions of older versions folded into it. */

const song = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: `S${id}`,
  tns: [],
  artists: [],
  ...extra,
})
const saved = (items: unknown[]) => ({
  version: 1,
  queue: { entries: items.map((item, i) => ({ key: `e${i + 1}`, item })), current: 0 },
  positionMs: 5,
  volume: 1,
  muted: false,
})

describe('player session migration', () => {
  it("takes the active source's old session, each song stamped with that source, and drops the others", () => {
    const store = createMemoryStore({
      [legacySessionKey('builtin')]: JSON.stringify(saved([song(1), song(2, { sourceId: 'x' })])),
      [legacySessionKey('other')]: JSON.stringify(saved([song(9)])),
    })
    const session = readSession(store, 'builtin', ['builtin', 'other'], 1_000_000)
    expect(session).toEqual(saved([song(1, { sourceId: 'builtin' }), song(2, { sourceId: 'x' })]))
    expect(Object.keys(store.snapshot())).toEqual([SESSION_KEY])
    // Read again: the one session, as saved.
    expect(readSession(store, 'other', ['builtin', 'other'], 1_000_000)).toEqual(session)
  })

  it('answers null for no session, a broken one or one over the cap', () => {
    expect(readSession(createMemoryStore(), 'builtin', [], 100)).toBeNull()
    expect(readSession(createMemoryStore({ [SESSION_KEY]: '{' }), 'builtin', [], 100)).toBeNull()
    expect(readSession(createMemoryStore({ [SESSION_KEY]: 'x'.repeat(101) }), 'builtin', [], 100)).toBeNull()
  })

  it('leaves a session of another shape as it is', () => {
    expect(stampSessionSource({ queue: null }, 'a')).toEqual({ queue: null })
    expect(stampSessionSource('text', 'a')).toBe('text')
  })
})
