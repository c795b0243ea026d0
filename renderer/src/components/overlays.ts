import { defineAsyncComponent } from 'vue'
import { whenIdle } from '@renderer/services/idle'
import { withViewsEnglish } from '@renderer/i18n'

/**
 * What the first screen does not show, kept out of the initial JavaScript: the now-playing screen (with
 * its lyrics), the mini player, the queue and sound panels and the collection dialogs are their own chunks, loaded
 * when first shown and fetched ahead while the app is idle (`warmOverlays`) so opening them does not wait
 * for the file. Each waits for the views' English, which holds its text.
 */
const loaders = {
  nowPlaying: withViewsEnglish(() => import('./now-playing/NowPlayingScreen.vue')),
  miniPlayer: withViewsEnglish(() => import('./mini-player/MiniPlayer.vue')),
  queuePanel: withViewsEnglish(() => import('./player/PlayerQueuePanel.vue')),
  soundPanel: withViewsEnglish(() => import('./player/PlayerSoundPanel.vue')),
  collectionAdd: withViewsEnglish(() => import('./collection/CollectionAddDialog.vue')),
  collectionName: withViewsEnglish(() => import('./collection/CollectionNameDialog.vue')),
}

export const NowPlayingScreen = defineAsyncComponent(loaders.nowPlaying)
export const MiniPlayer = defineAsyncComponent(loaders.miniPlayer)
export const PlayerQueuePanel = defineAsyncComponent(loaders.queuePanel)
export const PlayerSoundPanel = defineAsyncComponent(loaders.soundPanel)
export const CollectionAddDialog = defineAsyncComponent(loaders.collectionAdd)
export const CollectionNameDialog = defineAsyncComponent(loaders.collectionName)

type Lazy = { __asyncLoader?: () => Promise<unknown> }

/**
 * Loads every overlay once the app is idle, through Vue's own loader of each async component: once that
 * has resolved, the overlay renders in the same tick it is asked for, as a static import would (a failed
 * fetch is tried again when the overlay is shown).
 */
export function warmOverlays(): void {
  const warm = () => {
    for (const component of [
      NowPlayingScreen,
      MiniPlayer,
      PlayerQueuePanel,
      PlayerSoundPanel,
      CollectionAddDialog,
      CollectionNameDialog,
    ]) {
      void (component as Lazy).__asyncLoader?.().catch(() => undefined)
    }
  }
  whenIdle(warm, 3000)
}
