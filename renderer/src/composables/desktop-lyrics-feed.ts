import { computed, watch } from 'vue'
import type { LyricLine } from '@shared/ipc/contract'
import { invoke } from '@renderer/services/cadence'
import { usePlayerStore } from '@renderer/stores/player'
import { useLyricsStore } from '@renderer/stores/lyrics'
import { useSettingsStore } from '@renderer/stores/settings'
import { artistNames } from '@shared/api/artist-names'

const MAX = 500
const clip = (text: string) => text.slice(0, MAX)

/**
 * Feeds the desktop lyrics window: while it is on, each new line (and the next one) goes to main, which
 * relays it to that window. One message per line change, not per clock tick; nothing while it is off.
 */
export function useDesktopLyricsFeed() {
  const player = usePlayerStore()
  const lyrics = useLyricsStore()
  const settings = useSettingsStore()

  const line = computed<LyricLine | null>(() => {
    if (!settings.settings.lyrics.desktop) return null
    const song = player.current
    if (!song) return { current: '', next: '' }
    const artists = artistNames(song)
    const lines = lyrics.lines
    const index = lyrics.currentIndex
    if (lines.length === 0) return { current: clip(song.name), next: clip(artists) }
    const at = lines[index]
    const translation = lyrics.showTranslation ? at?.translation : undefined
    return {
      current: clip(index < 0 ? song.name : at?.text || '♪'),
      ...(translation ? { translation: clip(translation) } : {}),
      next: clip(lines[index + 1]?.text ?? ''),
    }
  })

  watch(
    () => JSON.stringify(line.value),
    () => {
      const value = line.value
      if (value) invoke('lyrics:report-line', value).catch(() => undefined)
    },
    { immediate: true },
  )
}
