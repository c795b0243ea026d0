import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import { createSleepTimer } from '@renderer/services/player/sleep-timer'
import type { SleepMode, SleepView } from '@renderer/services/player/sleep-timer'
import { usePlayerStore } from '@renderer/stores/player'
import { useQueueStore } from '@renderer/stores/queue'

/** How often the timer looks at what plays (the output's clock moves the position 4 times a second). */
const TICK_MS = 250
/** A planned fade is planned again only when its end moves by more than this (a seek, a speed change). */
const REPLAN_MS = 1000

/**
 * The sleep timer wired to the player (the rules are `services/player/sleep-timer.ts`): it pauses, never
 * quits; the last seconds fade out on the audio clock (Settings → `sleepFadeSeconds`), then the player
 * pauses and the volume comes back for the next Play. Cancelling undoes a fade under way.
 */
export const useSleepTimerStore = defineStore('sleep-timer', () => {
  const player = usePlayerStore()
  const q = useQueueStore()
  const timer = createSleepTimer({ now: () => Date.now() })

  const mode = shallowRef<SleepMode | null>(null)
  /** Time left (ms) when known; null for "end of album/queue" until its last song plays. */
  const remainingMs = ref<number | null>(null)
  const active = computed(() => mode.value !== null)

  let ticker: ReturnType<typeof setInterval> | undefined
  /** When (wall clock, ms) the fade under way reaches silence. */
  let fadeEndsAt: number | null = null

  function view(): SleepView {
    const entry = q.currentEntry
    const next = q.peekAdvance()
    return {
      key: entry?.key ?? null,
      albumId: entry?.item.album?.id !== undefined ? String(entry.item.album.id) : null,
      positionMs: player.currentTimeMs(),
      durationMs: player.durationMs,
      playing: player.playing,
      repeatOne: q.repeat === 'one',
      last: q.index >= q.entries.length - 1,
      nextAlbumId: next && next.key !== entry?.key && next.item.album ? String(next.item.album.id) : null,
    }
  }

  function endFade() {
    if (fadeEndsAt === null) return
    fadeEndsAt = null
    player.cancelFadeOut()
  }

  function tick() {
    const fadeMs = player.settings.sleepFadeSeconds * 1000
    const decision = timer.step(view(), fadeMs)
    remainingMs.value = decision.remainingMs
    if (decision.stop) {
      void player.pause()
      if (decision.stop.rewind) void player.seek(0)
      stopTicking()
      remainingMs.value = null
      // After the pause's own fade: the volume is back for the next Play.
      setTimeout(endFade, 100)
      return
    }
    if (!decision.fade || decision.remainingMs === null) return endFade()
    // Song time runs at the player's speed; the fade is planned in the audio clock's seconds.
    const speed = mode.value?.kind === 'minutes' ? 1 : player.speed || 1
    const inMs = decision.remainingMs / speed
    const endsAt = Date.now() + inMs
    if (fadeEndsAt !== null && Math.abs(endsAt - fadeEndsAt) <= REPLAN_MS) return
    fadeEndsAt = endsAt
    player.fadeOut(inMs / 1000, fadeMs / 1000 / speed)
  }

  function stopTicking() {
    clearInterval(ticker)
    ticker = undefined
    mode.value = null
  }

  /** Sets the timer (replacing one that runs). */
  function start(next: SleepMode) {
    endFade()
    timer.arm(next, view())
    mode.value = next
    clearInterval(ticker)
    ticker = setInterval(tick, TICK_MS)
    tick()
  }

  /** One click: the timer is off, the music plays on at its volume. */
  function cancel() {
    timer.cancel()
    stopTicking()
    remainingMs.value = null
    endFade()
  }

  return { mode, remainingMs, active, start, cancel }
})
