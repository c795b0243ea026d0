import { getCurrentScope, onMounted, onScopeDispose, watch } from 'vue'
import { usePlayerStore } from '@renderer/stores/player'
import { useSettingsStore } from '@renderer/stores/settings'
import { useOfflineStore } from '@renderer/stores/offline'
import { startMediaIntegration } from '@renderer/services/player/media-session'
import { useSleepTimerStore } from '@renderer/stores/sleep-timer'
import { usePlayerShortcuts } from './player-shortcuts'
import { useListenRecorder } from './listen-recorder'
import { useAutoplayStore } from '@renderer/stores/autoplay'

/**
 * Starts the player for the app window that plays (the main window, not the login or lyrics windows):
 * the restored session, the media integration (OS media session, main's commands and state reports) and
 * the app-wide player keys, the desktop lyrics feed. Called once, from the app's root component.
 *
 * The feed (with the lyrics store and `shared/lyrics`) is a lazy chunk, loaded the first time desktop
 * lyrics are on; it then runs in this scope and sends nothing while they are off again.
 */
export function usePlayerStartup() {
  const player = usePlayerStore()
  const settings = useSettingsStore()
  const offline = useOfflineStore()
  // The OS media session shows the kept cover while offline (its address would not load).
  const sleep = useSleepTimerStore()
  const stopMedia = startMediaIntegration(player, {
    coverSrc: (url, sourceId) => offline.coverSrc(url, sourceId),
    // The tray shows the sleep timer's minutes left and cancels it.
    sleep: {
      state: () =>
        sleep.mode
          ? {
              kind: sleep.mode.kind,
              leftMinutes: sleep.remainingMs === null ? null : Math.ceil(sleep.remainingMs / 60_000),
            }
          : undefined,
      cancel: () => sleep.cancel(),
    },
  })
  usePlayerShortcuts()
  // Every listen (by the listen rule) goes to main's history.
  const stopRecorder = useListenRecorder()
  // More songs that fit when the queue runs low (Settings → Playback → Autoplay).
  useAutoplayStore().start()
  const scope = getCurrentScope()
  let feeding = false
  const stopWatch = watch(
    () => settings.settings.lyrics.desktop,
    (on) => {
      if (!on || feeding) return
      feeding = true
      void import('./desktop-lyrics-feed').then(({ useDesktopLyricsFeed }) => {
        if (scope?.active) scope.run(useDesktopLyricsFeed)
      })
    },
    { immediate: true },
  )
  // Discord Rich Presence: the reports start (a lazy chunk) the first time the setting is on.
  let presence = false
  const stopPresence = watch(
    () => settings.settings.discordPresence,
    (on) => {
      if (!on || presence) return
      presence = true
      void import('./presence-report').then((m) => scope?.active && scope.run(m.usePresenceReport))
    },
    { immediate: true },
  )
  // Another data source becoming active leaves the queue as it is: each song plays from its own source
  // (docs/renderer.md, "Switching data sources").
  onMounted(() => void player.init())
  onScopeDispose(() => {
    stopRecorder()
    stopPresence()
    stopWatch()
    stopMedia()
  })
}
