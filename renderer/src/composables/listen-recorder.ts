import { watch } from 'vue'
import { createListenCounter } from '@shared/player/listen-rule'
import { PLACEHOLDER_SONG_ID } from '@shared/ipc/history'
import type { Listen } from '@shared/ipc/history'
import { invoke } from '@renderer/services/cadence'
import { coverUrl } from '@renderer/services/cover-url'
import { usePlayerStore } from '@renderer/stores/player'
import { useAuthStore } from '@renderer/stores/auth'
import { sourceOf } from '@renderer/stores/queue'

/**
 * Records listens: the player's position, read as it moves, is counted by the listen rule
 * (`shared/player/listen-rule.ts`: heard time, seeks add nothing); a play that becomes a listen is sent
 * to main once (`history:record`), which keeps it unless a private session is on. Started with the player.
 */
export function useListenRecorder() {
  const player = usePlayerStore()
  const auth = useAuthStore()
  const counter = createListenCounter()

  return watch(
    () => [player.currentKey, player.positionMs, player.playing] as const,
    ([key, positionMs, playing]) => {
      const song = player.current
      const durationMs = player.durationMs || song?.duration || 0
      if (!counter.observe({ key, positionMs, durationMs, playing })) return
      // A queued song names its own data source (the queue mixes sources); the active one otherwise.
      const sourceId = (song && sourceOf(song)) ?? auth.sourceId
      if (!song || !sourceId || String(song.id) === PLACEHOLDER_SONG_ID) return
      const cover = coverUrl(song)
      const listen: Listen = {
        // When the play began (ListenBrainz's listened_at): now, less what was heard.
        listenedAt: Math.round(Date.now() - counter.heardMs / (player.speed || 1)),
        sourceId,
        songId: String(song.id),
        title: song.name.slice(0, 500),
        artists: song.artists.map((a) => a.name.slice(0, 500)).slice(0, 50),
        ...(song.album?.name ? { album: song.album.name.slice(0, 500) } : {}),
        ...(song.album?.id !== undefined && song.album.id !== '' ? { albumId: String(song.album.id) } : {}),
        durationMs: Math.round(durationMs),
        ...(cover && /^https?:/i.test(cover) && cover.length <= 2048 ? { cover } : {}),
      }
      void invoke('history:record', listen).catch(() => undefined)
    },
  )
}
