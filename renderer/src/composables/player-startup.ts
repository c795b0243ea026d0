import { onMounted, onScopeDispose } from 'vue'
import { usePlayerStore } from '@renderer/stores/player'
import { startMediaIntegration } from '@renderer/services/player/media'
import { usePlayerShortcuts } from './player-shortcuts'
import { useDesktopLyricsFeed } from './desktop-lyrics-feed'

/**
 * Starts the player for the app window that plays (the main window, not the login or lyrics windows):
 * the restored session, the media integration (OS media session, main's commands and state reports) and
 * the app-wide player keys, the desktop lyrics feed. Called once, from the app's root component.
 */
export function usePlayerStartup() {
  const player = usePlayerStore()
  const stopMedia = startMediaIntegration(player)
  usePlayerShortcuts()
  useDesktopLyricsFeed()
  onMounted(() => void player.init())
  onScopeDispose(stopMedia)
}
