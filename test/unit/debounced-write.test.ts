import { describe, expect, it } from 'vitest'
import { debouncedWrite } from '@main/core/debounced'
import type { Timers } from '@main/core/ports'

/** Timers driven by hand: `run()` fires what is due by `now`. */
function manualTimers() {
  let now = 0
  let next = 0
  const waiting = new Map<number, { at: number; callback: () => void }>()
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      waiting.set(++next, { at: now + ms, callback })
      return next
    },
    clearTimeout: (handle) => void waiting.delete(handle as number),
  }
  return {
    timers,
    waiting: () => waiting.size,
    advance(ms: number) {
      now += ms
      for (const [id, timer] of [...waiting]) {
        if (timer.at > now) continue
        waiting.delete(id)
        timer.callback()
      }
    },
  }
}

describe('debouncedWrite', () => {
  it('writes once for many changes, the delay after the first', () => {
    const clock = manualTimers()
    let writes = 0
    const later = debouncedWrite(() => writes++, 1000, clock.timers)
    later.schedule()
    clock.advance(600)
    later.schedule()
    later.schedule()
    expect(writes).toBe(0)
    expect(later.pending()).toBe(true)
    clock.advance(400)
    expect(writes).toBe(1)
    expect(later.pending()).toBe(false)
    clock.advance(5000)
    expect(writes).toBe(1)
  })

  it('writes again for a change after a write', () => {
    const clock = manualTimers()
    let writes = 0
    const later = debouncedWrite(() => writes++, 100, clock.timers)
    later.schedule()
    clock.advance(100)
    later.schedule()
    clock.advance(100)
    expect(writes).toBe(2)
  })

  it('flushes now in place of the write that waits, and answers what the write returns', () => {
    const clock = manualTimers()
    let writes = 0
    const later = debouncedWrite(() => ++writes, 1000, clock.timers)
    later.schedule()
    expect(later.flush()).toBe(1)
    expect(clock.waiting()).toBe(0)
    clock.advance(1000)
    expect(writes).toBe(1)
  })

  it('drops the write that waits when cancelled', () => {
    const clock = manualTimers()
    let writes = 0
    const later = debouncedWrite(() => writes++, 1000, clock.timers)
    later.schedule()
    later.cancel()
    clock.advance(1000)
    expect(writes).toBe(0)
    expect(later.pending()).toBe(false)
  })
})
