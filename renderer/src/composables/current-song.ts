import { computed } from 'vue'
import type { Song } from '@shared/api/models'
import { usePlayerStore } from '@renderer/stores/player'

/** "A, B": a song's artists as one line. */
export function artistNames(song: Pick<Song, 'artists'>): string {
  return song.artists.map((artist) => artist.name).join(', ')
}

/** The song's cover when it is an address an `<img>` may load (data sources send other strings too). */
export function coverUrl(song: Song | null | undefined): string | undefined {
  const url = song?.album?.cover
  return url && /^(https?:|data:image\/)/i.test(url) ? url : undefined
}

/** The playing song's artists line and cover, for the bar, the mini player and the now-playing screen. */
export function useCurrentSong() {
  const player = usePlayerStore()
  return {
    artists: computed(() => (player.current ? artistNames(player.current) : '')),
    cover: computed(() => coverUrl(player.current)),
  }
}
