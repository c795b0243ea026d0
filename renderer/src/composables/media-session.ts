import { onScopeDispose, watch } from 'vue'
import { usePlayerStore } from '@renderer/stores/player'

/** Seconds moved by the OS's seek backward / forward buttons when they give no offset. */
const DEFAULT_SKIP_S = 10

/**
 * Mirrors the player into `navigator.mediaSession` (the OS media overlay, media keys, headset buttons):
 * metadata with artwork, the actions, and the position state. Position is set when the clock jumps or
 * its rate changes, never per `timeupdate` (the OS extrapolates it).
 */
export function useMediaSession() {
  const session = typeof navigator !== 'undefined' ? navigator.mediaSession : undefined
  if (!session) return
  const player = usePlayerStore()

  const handlers: Partial<Record<MediaSessionAction, MediaSessionActionHandler>> = {
    play: () => void player.play(),
    pause: () => player.pause(),
    stop: () => player.stop(),
    previoustrack: () => void player.previous(),
    nexttrack: () => void player.next(),
    seekto: (details) => {
      if (details.seekTime !== undefined) player.seek(details.seekTime * 1000)
    },
    seekbackward: (details) => player.seek(player.positionMs - (details.seekOffset ?? DEFAULT_SKIP_S) * 1000),
    seekforward: (details) => player.seek(player.positionMs + (details.seekOffset ?? DEFAULT_SKIP_S) * 1000),
  }
  for (const [action, handler] of Object.entries(handlers)) {
    try {
      session.setActionHandler(action as MediaSessionAction, handler)
    } catch {
      // This browser does not know the action.
    }
  }

  watch(
    () => player.current,
    (song) => {
      if (!song || typeof MediaMetadata === 'undefined') {
        session.metadata = null
        return
      }
      const cover = song.album?.cover
      session.metadata = new MediaMetadata({
        title: song.name,
        artist: song.artists.map((a) => a.name).join(', '),
        album: song.album?.name ?? '',
        artwork: cover && /^https?:/i.test(cover) ? [{ src: cover, sizes: '512x512' }] : [],
      })
    },
    { immediate: true },
  )

  watch(
    () => player.playing,
    (playing) => (session.playbackState = player.current ? (playing ? 'playing' : 'paused') : 'none'),
    { immediate: true },
  )

  watch(
    () => [player.clockChanges, player.durationMs, player.playing] as const,
    () => {
      const duration = player.durationMs / 1000
      if (!session.setPositionState || !(duration > 0)) return
      try {
        session.setPositionState({
          duration,
          playbackRate: 1,
          position: Math.min(Math.max(player.positionMs / 1000, 0), duration),
        })
      } catch {
        // An inconsistent state (e.g. duration not known yet) is dropped; the next change sets it.
      }
    },
  )

  onScopeDispose(() => {
    for (const action of Object.keys(handlers)) {
      try {
        session.setActionHandler(action as MediaSessionAction, null)
      } catch {
        // ignore
      }
    }
  })
}
