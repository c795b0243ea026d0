import { defineStore } from 'pinia'
import { computed, markRaw, ref, shallowRef, watch } from 'vue'
import { buildLyrics } from '@shared/lyrics'
import type { Lyrics } from '@shared/lyrics'
import { usePlayerStore } from '@renderer/stores/player'
import { useLrclibStore } from '@renderer/stores/lrclib'
import { useTimedIndex } from '@renderer/services/timed-index'

/** One press of "earlier" / "later" moves the lyrics by this much. */
export const OFFSET_STEP_MS = 500
const OFFSETS_KEY = 'cadence.lyrics.offsets'
const MAX_SAVED_OFFSETS = 500

const NO_LYRICS: Lyrics = { lines: [], hasTranslation: false, hasTransliteration: false, hasWords: false }

function loadOffsets(): Record<string, number> {
  try {
    const saved = JSON.parse(localStorage.getItem(OFFSETS_KEY) ?? '{}') as unknown
    if (typeof saved !== 'object' || saved === null) return {}
    return Object.fromEntries(
      Object.entries(saved).filter((pair): pair is [string, number] => Number.isFinite(pair[1])),
    )
  } catch {
    return {}
  }
}

/**
 * The current song's lyrics for display: parsed and aligned by `shared/lyrics`, the line being sung (a
 * binary search on the audio clock, at each line's start), a per-song timing offset, and what to show.
 */
export const useLyricsStore = defineStore('lyrics', () => {
  const player = usePlayerStore()
  const lrclib = useLrclibStore()

  /** Rebuilt only when the resolved song changes, not on every queue edit. LRCLIB's where the source has none. */
  const lyrics = computed<Lyrics>(() => {
    const lyric = player.detail?.meta?.lyric
    const own = lyric ? buildLyrics(lyric) : NO_LYRICS
    return own.lines.length === 0 && lrclib.lyric ? buildLyrics(lrclib.lyric) : own
  })
  const lines = computed(() => lyrics.value.lines)
  const status = computed<'none' | 'loading' | 'ready' | 'empty'>(() => {
    if (!player.current) return 'none'
    if (lines.value.length > 0) return 'ready'
    return player.detail ? 'empty' : 'loading'
  })

  const showTranslation = ref(player.settings.lyrics.showTranslation)
  const showTransliteration = ref(player.settings.lyrics.showTransliteration)
  // Follow the settings when they change (not when some other setting does).
  watch(
    () => player.settings.lyrics.showTranslation,
    (value) => (showTranslation.value = value),
  )
  watch(
    () => player.settings.lyrics.showTransliteration,
    (value) => (showTransliteration.value = value),
  )

  /** Positive: the lyrics come later (the song's timing runs behind the text). Per song id. */
  const offsets = shallowRef<Record<string, number>>(loadOffsets())
  const songId = computed(() => (player.current ? String(player.current.id) : ''))
  const offsetMs = computed(() => offsets.value[songId.value] ?? 0)
  function setOffset(ms: number) {
    if (!songId.value) return
    const next = { ...offsets.value }
    const value = Math.round(ms / OFFSET_STEP_MS) * OFFSET_STEP_MS
    if (value === 0) delete next[songId.value]
    else next[songId.value] = value
    const keys = Object.keys(next)
    for (const key of keys.slice(0, Math.max(0, keys.length - MAX_SAVED_OFFSETS))) delete next[key]
    offsets.value = next
    try {
      localStorage.setItem(OFFSETS_KEY, JSON.stringify(next))
    } catch {
      // Storage full or unavailable: the offset still holds for this run.
    }
  }
  function shiftOffset(deltaMs: number) {
    setOffset(offsetMs.value + deltaMs)
  }

  /**
   * The lyrics' clock for timers on it (`useTimedIndex`: the line here, a line's words in the view): song
   * time less the offset, at the player's speed, set again when the clock jumps or changes rate, and on
   * the position's once-a-second moves (cheap: nothing renders unless the item changes), so a jump the
   * player does not announce is followed within a second.
   */
  const clock = markRaw({
    nowMs: () => player.currentTimeMs() - offsetMs.value,
    rate: () => player.speed,
    resync: [() => player.clockChanges, () => player.positionMs, () => player.speed, () => offsetMs.value],
  })

  /**
   * Index of the line being sung, -1 before the first: a new value only when the line changes, on time
   * (its own timer on the audio clock: the player's position moves only once a second).
   */
  const currentIndex = useTimedIndex({ running: computed(() => player.playing), items: lines, ...clock })

  /** Where the song is when line `index` starts (with the offset). */
  function lineTimeMs(index: number): number {
    return Math.max(0, (lines.value[index]?.time ?? 0) + offsetMs.value)
  }
  function seekToLine(index: number) {
    player.seek(lineTimeMs(index))
  }

  return {
    lyrics,
    lines,
    status,
    currentIndex,
    clock,
    offsetMs,
    showTranslation,
    showTransliteration,
    setOffset,
    shiftOffset,
    lineTimeMs,
    seekToLine,
  }
})
