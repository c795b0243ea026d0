import type { Timers } from './ports'

/**
 * A write put off so that many changes make one: `schedule()` starts a wait of `delayMs` unless one is
 * running (later calls join it: the write comes `delayMs` after the first change, however many follow),
 * `flush()` writes now in place of a write that waits, `cancel()` drops the one that waits.
 */
export function debouncedWrite<T>(write: () => T, delayMs: number, timers: Timers) {
  let timer: unknown
  const cancel = () => {
    if (timer !== undefined) timers.clearTimeout(timer)
    timer = undefined
  }
  return {
    schedule() {
      if (timer !== undefined) return
      timer = timers.setTimeout(() => {
        timer = undefined
        void write()
      }, delayMs)
    },
    flush(): T {
      cancel()
      return write()
    },
    cancel,
    /** A write waits. */
    pending: () => timer !== undefined,
  }
}
