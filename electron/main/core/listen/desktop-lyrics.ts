import type { LyricLine } from '@shared/ipc/contract'
import type { Settings } from '@shared/settings'
import type { EventHub } from '../events'
import type { SettingsService } from '../settings/service'
import type { DesktopLyricsWindowPort, Rect } from './ports'

const WIDTH = 900
const BOTTOM_MARGIN = 120

/** Where the desktop lyrics window opens: centred near the bottom of the work area. */
export function desktopLyricsBounds(workArea: Rect, fontSize: number): Rect {
  const width = Math.min(WIDTH, workArea.width)
  // Two lines (current and next) with room for a translation under the first, and the handle.
  const height = Math.round(fontSize * 4.2 + 40)
  return {
    x: Math.round(workArea.x + (workArea.width - width) / 2),
    y: Math.max(workArea.y, workArea.y + workArea.height - height - BOTTOM_MARGIN),
    width,
    height,
  }
}

const relevant = (s: Settings) => `${s.lyrics.desktop}|${s.lyrics.desktopLocked}|${s.lyrics.desktopFontSize}`

/**
 * The desktop lyrics: the window follows the settings (shown, locked), the tray and the shortcut toggle
 * the setting, and the player's lines are relayed to every window (the lyrics window shows them).
 */
export function createDesktopLyrics(deps: {
  settings: SettingsService
  events: EventHub
  window?: DesktopLyricsWindowPort
  workArea: () => Rect
}) {
  let last: LyricLine | null = null
  let open = false

  function apply(settings: Settings) {
    const port = deps.window
    if (!port) return
    if (settings.lyrics.desktop) {
      port.open(desktopLyricsBounds(deps.workArea(), settings.lyrics.desktopFontSize))
      port.setLocked(settings.lyrics.desktopLocked)
      open = true
    } else if (open) {
      port.close()
      open = false
    }
  }

  deps.settings.onChange((next, previous) => {
    if (relevant(next) !== relevant(previous)) apply(next)
  })

  return {
    /** Opens the window if the setting says so (at start). */
    start: () => apply(deps.settings.get()),
    isShown: () => deps.settings.get().lyrics.desktop,
    toggle() {
      deps.settings.update({ lyrics: { desktop: !deps.settings.get().lyrics.desktop } })
    },
    /** The window went away without the setting (closed by the OS): the setting follows. */
    closed() {
      open = false
      if (deps.settings.get().lyrics.desktop) deps.settings.update({ lyrics: { desktop: false } })
    },
    report(line: LyricLine) {
      last = line
      deps.events.emit('lyrics:line', line)
    },
    current: () => last,
  }
}
