import { watch } from 'vue'
import { createListenCounter } from '@shared/player/listen-rule'
import { PLACEHOLDER_SONG_ID } from '@shared/ipc/history'
import type { Listen } from '@shared/ipc/history'
import { invoke } from '@renderer/services/cadence'
import { coverUrl } from '@renderer/services/cover-url'
import { usePlayerStore } from '@renderer/stores/player'
import { useAuthStore } from '@renderer/stores/auth'
import { sourceOf, useQueueStore } from '@renderer/stores/queue'

/**
 * Records listens: the player's position, read as it moves, is counted by the listen rule
 * (`shared/player/listen-rule.ts`: heard time, seeks add nothing); a play that becomes a listen is sent
 * to main once (`history:record`), which keeps it unless a private session is on (and hands it to the
 * scrobbling services turned on). A song that starts playing is reported once (`scrobble:now-playing`).
 * Started with the player.
 */
export function useListenRecorder() {
  const player = usePlayerStore()
  const auth = useAuthStore()
  const queue = useQueueStore()
  const counter = createListenCounter()
  let announced: string | null = null

  return watch(
    () => [player.currentKey, player.positionMs, player.playing] as const,
    ([key, positionMs, playing]) => {
      const song = player.current
      const durationMs = player.durationMs || song?.duration || 0
      // A queued song names its own data source (the queue mixes sources); the active one otherwise.
      const sourceId = (song && sourceOf(song)) ?? auth.sourceId
      const real = song && sourceId && String(song.id) !== PLACEHOLDER_SONG_ID
      if (playing && key !== announced && real) {
        announced = key
        void invoke('scrobble:now-playing', {
          sourceId,
          songId: String(song.id),
          title: song.name.slice(0, 500),
          artists: song.artists.map((a) => a.name.slice(0, 500)).slice(0, 50),
          ...(song.album?.name ? { album: song.album.name.slice(0, 500) } : {}),
          durationMs: Math.round(durationMs),
        }).catch(() => undefined)
      }
      if (!counter.observe({ key, positionMs, durationMs, playing })) return
      if (!real) return
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
        ...(key !== null && queue.autoplayKeys.has(key) ? { autoplay: true } : {}),
      }
      void invoke('history:record', listen).catch(() => undefined)
    },
  )
}
