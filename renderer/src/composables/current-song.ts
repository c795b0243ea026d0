import { computed, ref } from 'vue'
import { artistNames } from '@shared/api/artist-names'
import { coverUrl } from '@renderer/services/cover-url'
import { useOfflineStore } from '@renderer/stores/offline'
import { usePlayerStore } from '@renderer/stores/player'
import { sourceOf } from '@renderer/stores/queue'

/**
 * The playing song's artists line and cover, for the bar, the mini player and the now-playing screen. The
 * cover comes from main's kept copy offline, or once the data source's image failed (`coverError`, the
 * image's error handler); `cover` is undefined (a placeholder) when that fails too.
 */
export function useCurrentSong() {
  const player = usePlayerStore()
  const offline = useOfflineStore()
  const original = computed(() => coverUrl(player.current))
  /** The song's source: main fetches its cover under that source's policy (a queue mixes sources). */
  const source = computed(() => (player.current ? sourceOf(player.current) : undefined))
  const broken = ref<string>()
  const cover = computed(() => {
    const src = offline.coverSrc(original.value, source.value)
    return src === broken.value ? undefined : src
  })
  return {
    artists: computed(() => (player.current ? artistNames(player.current) : '')),
    cover,
    source,
    coverError() {
      const src = cover.value
      if (src && !offline.coverFailed(original.value, src)) broken.value = src
    },
  }
}
