import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { effectScope, nextTick, ref } from 'vue'
import type { LyricWord } from '@shared/lyrics'
import { useTimedIndex } from '@renderer/services/timed-index'

/** Words at 1000, 1400, 2000 and 3000 ms of the song. */
const WORDS: LyricWord[] = [
  { time: 1000, duration: 400, text: 'one ' },
  { time: 1400, duration: 600, text: 'two ' },
  { time: 2000, duration: 1000, text: 'three ' },
  { time: 3000, duration: 500, text: 'four' },
]

/** A song clock driven by the fake timers: position = base + (now − since) × rate while playing. */
function songClock() {
  const clock = { base: 0, since: 0, rate: 1, playing: true }
  return {
    clock,
    nowMs: () => (clock.playing ? clock.base + (Date.now() - clock.since) * clock.rate : clock.base),
    jump(to: number) {
      clock.base = to
      clock.since = Date.now()
    },
  }
}

describe("the timed index (a line's words, a lyric's lines)", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  function start(rate = ref(1)) {
    const song = songClock()
    const running = ref(true)
    const words = ref<readonly LyricWord[] | undefined>(WORDS)
    const changes = ref(0)
    const scope = effectScope()
    const index = scope.run(() =>
      useTimedIndex({
        running,
        items: words,
        nowMs: song.nowMs,
        rate: () => rate.value,
        resync: [changes, rate],
      }),
    )!
    return { song, running, words, changes, rate, scope, index }
  }

  it('moves to each word at its start, with one timer and no frame loop', async () => {
    const frames = vi.spyOn(globalThis, 'requestAnimationFrame')
    const { index, scope } = start()
    expect(index.value).toBe(-1)
    expect(vi.getTimerCount()).toBe(1)
    await vi.advanceTimersByTimeAsync(999)
    expect(index.value).toBe(-1)
    await vi.advanceTimersByTimeAsync(1)
    expect(index.value).toBe(0)
    await vi.advanceTimersByTimeAsync(400)
    expect(index.value).toBe(1)
    await vi.advanceTimersByTimeAsync(600)
    expect(index.value).toBe(2)
    await vi.advanceTimersByTimeAsync(1000)
    expect(index.value).toBe(3)
    // The last word: nothing left to wait for.
    expect(vi.getTimerCount()).toBe(0)
    expect(frames).not.toHaveBeenCalled()
    scope.stop()
  })

  it('waits again when the timer fires before the clock reaches the word', async () => {
    const { song, index, scope } = start()
    // The clock stalls at 900 for 300 ms (e.g. the output waits for data) just before the first word.
    await vi.advanceTimersByTimeAsync(900)
    song.clock.base = 900
    song.clock.playing = false
    await vi.advanceTimersByTimeAsync(300)
    expect(index.value).toBe(-1)
    song.clock.since = Date.now()
    song.clock.playing = true
    await vi.advanceTimersByTimeAsync(99)
    expect(index.value).toBe(-1)
    await vi.advanceTimersByTimeAsync(1)
    expect(index.value).toBe(0)
    scope.stop()
  })

  it('follows a jump of the clock when told (seek)', async () => {
    const { song, changes, index, scope } = start()
    await vi.advanceTimersByTimeAsync(500)
    song.jump(2500)
    changes.value++
    await nextTick()
    expect(index.value).toBe(2)
    expect(vi.getTimerCount()).toBe(1)
    await vi.advanceTimersByTimeAsync(500)
    expect(index.value).toBe(3)
    scope.stop()
  })

  it('waits in wall time: the song distance divided by the speed', async () => {
    const rate = ref(2)
    const { song, index, scope } = start(rate)
    song.clock.rate = 2
    await vi.advanceTimersByTimeAsync(499)
    expect(index.value).toBe(-1)
    await vi.advanceTimersByTimeAsync(1)
    expect(index.value).toBe(0)
    // Back to 1× at song time 1000: the next word (1400) is 400 ms away.
    song.jump(song.nowMs())
    song.clock.rate = 1
    rate.value = 1
    await nextTick()
    await vi.advanceTimersByTimeAsync(399)
    expect(index.value).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(index.value).toBe(1)
    scope.stop()
  })

  it('keeps no timer while paused, on new words, or once its owner is gone', async () => {
    const { song, running, words, index, scope } = start()
    await vi.advanceTimersByTimeAsync(1500)
    expect(index.value).toBe(1)
    song.clock.base = song.nowMs()
    song.clock.playing = false
    running.value = false
    await nextTick()
    expect(vi.getTimerCount()).toBe(0)
    expect(index.value).toBe(1)
    words.value = undefined
    await nextTick()
    expect(index.value).toBe(-1)
    song.clock.playing = true
    song.clock.since = Date.now()
    words.value = WORDS
    running.value = true
    await nextTick()
    expect(index.value).toBe(1)
    expect(vi.getTimerCount()).toBe(1)
    scope.stop()
    expect(vi.getTimerCount()).toBe(0)
  })
})
