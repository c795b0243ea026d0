import type { Song } from '@shared/api/models'
import { usePlayerStore } from '@renderer/stores/player'

/** Play all and Shuffle for a list: unplayable songs are left out of the queue. */
export function usePlaySongs() {
  const player = usePlayerStore()
  const playable = (songs: readonly Song[]) => songs.filter((s) => s.privilege?.playable !== false)
  return {
    playAll: (songs: readonly Song[]) => {
      const list = playable(songs)
      if (list.length) void player.playSongs(list, 0)
    },
    /** Turns the player's shuffle on and starts at a random song. */
    shuffle: (songs: readonly Song[]) => {
      const list = playable(songs)
      if (!list.length) return
      player.setShuffle(true)
      void player.playSongs(list, Math.floor(Math.random() * list.length))
    },
  }
}
