import type { EventHub } from '../events'
import type { Handlers } from '../ipc/router'
import type { LoggerFactory } from '../log'
import type { SettingsService } from '../settings/service'
import { createDesktopLyrics } from './desktop-lyrics'
import { createMiniPlayer } from './mini-player'
import type { ListenPorts, Rect } from './ports'
import { createTrackNotifier } from './track-notification'

/**
 * The listening features that live partly outside the main window: desktop lyrics, the mini player and
 * the track-change notification. Decisions here; windows and notifications through `ListenPorts`.
 */
export function createListen(deps: {
  ports: ListenPorts
  settings: SettingsService
  events: EventHub
  fetch?: typeof fetch
  log: LoggerFactory
}) {
  const fallbackArea: Rect = { x: 0, y: 0, width: 1280, height: 800 }
  const desktopLyrics = createDesktopLyrics({
    settings: deps.settings,
    events: deps.events,
    window: deps.ports.desktopLyrics,
    workArea: () => deps.ports.miniPlayer?.workArea() ?? fallbackArea,
  })
  const miniPlayer = createMiniPlayer({ port: deps.ports.miniPlayer, events: deps.events })
  const notifier = createTrackNotifier({
    notifier: deps.ports.notifier,
    enabled: () => deps.settings.get().notifyTrackChange,
    fetch: deps.fetch ?? globalThis.fetch,
    log: deps.log('notify'),
  })

  const handlers: Pick<
    Handlers,
    'lyrics:report-line' | 'lyrics:current-line' | 'window:set-mini' | 'notify:track-changed'
  > = {
    'lyrics:report-line': (line) => desktopLyrics.report(line),
    'lyrics:current-line': () => desktopLyrics.current(),
    'window:set-mini': ({ mini }) => miniPlayer.set(mini),
    'notify:track-changed': async (track) => void (await notifier.trackChanged(track)),
  }
  return { handlers, desktopLyrics, miniPlayer, notifier }
}

export type { ListenPorts } from './ports'
