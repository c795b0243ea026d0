import { computed } from 'vue'
import { artistNames } from '@shared/api/artist-names'
import { coverUrl } from '@renderer/services/cover-url'
import { usePlayerStore } from '@renderer/stores/player'

/** The playing song's artists line and cover, for the bar, the mini player and the now-playing screen. */
export function useCurrentSong() {
  const player = usePlayerStore()
  return {
    artists: computed(() => (player.current ? artistNames(player.current) : '')),
    cover: computed(() => coverUrl(player.current)),
  }
}
