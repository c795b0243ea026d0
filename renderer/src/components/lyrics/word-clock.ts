import { onScopeDispose, ref, watch } from 'vue'
import type { Ref, WatchSource } from 'vue'
import { findLineIndex } from '@shared/lyrics'
import type { LyricWord } from '@shared/lyrics'

/** Shortest wait, so that a word a hair away does not spin the timer (under a frame at 60 Hz). */
const MIN_WAIT_MS = 8

/**
 * Index of the word being sung in `words`, while `running` is true (playing, and the song has word
 * timing). Not a loop every frame: a timer waits for the next word's start (its distance on the song
 * clock divided by `rate`, the player's speed) and the index is read from the real clock when it fires,
 * so a timer a little early only waits again for the rest. The clock jumping or changing rate (seek,
 * pause, play, speed: `resync`) and new words set the timer again. The ref changes only when the word
 * does. The timer stops on pause and when the owner unmounts.
 */
export function useWordClock(options: {
  running: Ref<boolean>
  words: Ref<readonly LyricWord[] | undefined>
  nowMs: () => number
  /** Song ms per wall ms (the player's speed; default 1). */
  rate?: () => number
  /** Sources that change when the clock jumps or its rate changes (e.g. the player's `clockChanges`). */
  resync?: WatchSource<unknown>[]
}): Ref<number> {
  const wordIndex = ref(-1)
  let timer: ReturnType<typeof setTimeout> | undefined

  function stopTimer() {
    clearTimeout(timer)
    timer = undefined
  }

  /** Reads the word from the clock; while running, waits for the next word's start. */
  function update() {
    timer = undefined
    const words = options.words.value
    if (!words || words.length === 0) {
      wordIndex.value = -1
      return
    }
    const now = options.nowMs()
    const index = findLineIndex(words, now)
    if (index !== wordIndex.value) wordIndex.value = index
    const next = words[index + 1]
    if (!options.running.value || !next) return
    const rate = options.rate?.() ?? 1
    const wait = (next.time - now) / (rate > 0 ? rate : 1)
    timer = setTimeout(update, Math.max(MIN_WAIT_MS, Math.ceil(wait)))
  }

  watch(
    [options.running, options.words, ...(options.resync ?? [])],
    () => {
      stopTimer()
      update()
    },
    { immediate: true },
  )
  onScopeDispose(stopTimer)
  return wordIndex
}
