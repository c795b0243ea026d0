/** Timers a test fires by hand: `fire(ms)` runs the ones set with that delay, so nothing waits on the clock. */
export function manualTimers() {
  const timers = new Map<number, { callback: () => void; ms: number }>()
  let next = 0
  return {
    setTimeout(callback: () => void, ms: number) {
      timers.set(++next, { callback, ms })
      return next
    },
    clearTimeout(handle: unknown) {
      timers.delete(handle as number)
    },
    /** Delays of the timers that are set. */
    delays: () => [...timers.values()].map((t) => t.ms),
    fire(ms: number) {
      for (const [id, t] of [...timers]) {
        if (t.ms !== ms) continue
        timers.delete(id)
        t.callback()
      }
    },
  }
}
