import { describe, expect, it } from 'vitest'
import { reclaimMemory } from '../../server/reclaim'

describe('reclaimMemory', () => {
  it('frees what nothing refers to any more, at once', async () => {
    // Nothing but the WeakRef refers to the rows once this returns.
    const ref = ((rows: number[]) => new WeakRef({ rows }))(Array.from({ length: 50_000 }, (_, i) => i))
    // A WeakRef keeps its target to the end of the job that made it.
    await new Promise((r) => setTimeout(r, 0))
    expect(reclaimMemory()).toBe(true)
    expect(ref.deref()).toBeUndefined()
  })

  it('leaves the global object without a gc function', () => {
    reclaimMemory()
    expect('gc' in globalThis).toBe(false)
  })
})
