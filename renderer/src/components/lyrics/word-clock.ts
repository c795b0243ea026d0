import { onScopeDispose, ref, watch } from 'vue'
import type { Ref } from 'vue'
import { findLineIndex } from '@shared/lyrics'
import type { LyricWord } from '@shared/lyrics'

/**
 * Index of the word being sung in `words`, driven by requestAnimationFrame only while `running` is true
 * (playing, and the song has word timing). The ref changes only when the word does, so a frame costs one
 * binary search and no render. The loop stops on pause and when the owner unmounts.
 */
export function useWordClock(options: {
  running: Ref<boolean>
  words: Ref<readonly LyricWord[] | undefined>
  nowMs: () => number
}): Ref<number> {
  const wordIndex = ref(-1)
  let frame = 0

  function update() {
    const words = options.words.value
    const index = words && words.length > 0 ? findLineIndex(words, options.nowMs()) : -1
    if (index !== wordIndex.value) wordIndex.value = index
  }
  function tick() {
    update()
    frame = requestAnimationFrame(tick)
  }
  function stopLoop() {
    if (frame) cancelAnimationFrame(frame)
    frame = 0
  }

  watch(
    [options.running, options.words],
    ([running]) => {
      stopLoop()
      update()
      if (running) frame = requestAnimationFrame(tick)
    },
    { immediate: true },
  )
  onScopeDispose(stopLoop)
  return wordIndex
}
