import { computed, watch } from 'vue'
import { invoke } from '@renderer/services/cadence'
import { trackInfo } from '@renderer/services/player/media-session'
import { usePlayerStore } from '@renderer/stores/player'

/**
 * Tells main what is playing for Discord Rich Presence (Settings → Discord): the song, playing or not,
 * and the position at each jump of the clock (main works out the start and end times). A lazy chunk,
 * started the first time the setting is on; main ignores the reports while it is off.
 */
export function usePresenceReport() {
  const player = usePlayerStore()
  const report = computed(() => {
    const song = player.current
    const info = song ? trackInfo(song) : null
    return {
      playing: player.playing && !!song,
      song: info
        ? { id: info.id, name: info.name, artists: info.artists, album: info.album, cover: info.cover }
        : null,
      clock: player.clockChanges,
      durationMs: Math.max(0, Math.round(player.durationMs) || 0),
    }
  })
  let last = ''
  watch(
    report,
    ({ playing, song, durationMs }) => {
      const text = JSON.stringify(report.value)
      if (text === last) return
      last = text
      const positionMs = Math.max(0, Math.round(player.positionMs) || 0)
      invoke('presence:report', { playing, song, positionMs, durationMs }).catch(() => undefined)
    },
    { immediate: true },
  )
}
