import { watch } from 'vue'
import { useRoute, useRouter } from 'vue-router'
import { useAuthStore } from '@renderer/stores/auth'
import { useHomeStore } from '@renderer/stores/home'
import { useLibraryStore } from '@renderer/stores/library'
import { useLikesStore } from '@renderer/stores/likes'
import { useSearchStore } from '@renderer/stores/search'

/** Views that show one thing of one data source: after a switch their id means nothing (or another thing). */
const SOURCE_PAGES = new Set(['playlist', 'album', 'artist', 'collection'])

/**
 * When another data source becomes active, nothing of the old one stays on screen: Home, the library and
 * search results are forgotten (they load afresh from the new source when shown), likes toggled on the
 * old source are dropped, and a page of one of its playlists, albums or artists goes to Home. The player
 * (its own chunk) follows the switch itself (`usePlayerStartup`).
 */
export function useSourceSwitch() {
  const auth = useAuthStore()
  const route = useRoute()
  const router = useRouter()
  watch(
    () => auth.sourceId,
    (now, before) => {
      if (before === undefined || now === undefined || now === before) return
      useHomeStore().reset()
      useLibraryStore().reset()
      useSearchStore().clearResult()
      useLikesStore().reset()
      if (typeof route.name === 'string' && SOURCE_PAGES.has(route.name))
        void router.replace({ name: 'home' })
    },
  )
}
