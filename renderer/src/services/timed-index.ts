import { onScopeDispose, ref, watch } from 'vue'
import type { Ref, WatchSource } from 'vue'
import { findLineIndex } from '@shared/lyrics'

/** Shortest wait, so that an item a hair away does not spin the timer (under a frame at 60 Hz). */
const MIN_WAIT_MS = 8

/**
 * Index of the item being sung in `items` (timed by `time`, song ms: a lyric's lines, or a line's words),
 * while `running` is true (playing). Not a loop every frame, and not the player's once-a-second position:
 * a timer waits for the next item's start (its distance on the song clock divided by `rate`, the player's
 * speed) and the index is read from the real clock when it fires, so a timer a little early only waits
 * again for the rest. The clock jumping or changing rate (seek, pause, play, speed: `resync`) and new
 * items set the timer again. The ref changes only when the item does. The timer stops on pause and when
 * the owner's scope ends.
 */
export function useTimedIndex(options: {
  running: Ref<boolean>
  items: Ref<readonly { time: number }[] | undefined>
  nowMs: () => number
  /** Song ms per wall ms (the player's speed; default 1). */
  rate?: () => number
  /** Sources that change when the clock jumps or its rate changes (e.g. the player's `clockChanges`). */
  resync?: WatchSource<unknown>[]
}): Ref<number> {
  const index = ref(-1)
  let timer: ReturnType<typeof setTimeout> | undefined

  function stopTimer() {
    clearTimeout(timer)
    timer = undefined
  }

  /** Reads the item from the clock; while running, waits for the next item's start. */
  function update() {
    timer = undefined
    const items = options.items.value
    if (!items || items.length === 0) {
      index.value = -1
      return
    }
    const now = options.nowMs()
    const at = findLineIndex(items, now)
    if (at !== index.value) index.value = at
    const next = items[at + 1]
    if (!options.running.value || !next) return
    const rate = options.rate?.() ?? 1
    const wait = (next.time - now) / (rate > 0 ? rate : 1)
    timer = setTimeout(update, Math.max(MIN_WAIT_MS, Math.ceil(wait)))
  }

  watch(
    [options.running, options.items, ...(options.resync ?? [])],
    () => {
      stopTimer()
      update()
    },
    { immediate: true },
  )
  onScopeDispose(stopTimer)
  return index
}
