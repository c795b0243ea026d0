import type { WindowMode } from '@shared/ipc/contract'
import type { EventHub } from '../events'
import type { MiniPlayerPort, Rect } from './ports'

export const MINI_PLAYER_SIZE = { width: 380, height: 112 }
const MARGIN = 24

/** Where the mini player sits: the top-right corner of the work area, inside it. */
export function miniPlayerBounds(workArea: Rect): Rect {
  const width = Math.min(MINI_PLAYER_SIZE.width, workArea.width)
  const height = Math.min(MINI_PLAYER_SIZE.height, workArea.height)
  return {
    x: workArea.x + Math.max(0, workArea.width - width - MARGIN),
    y: workArea.y + Math.min(MARGIN, Math.max(0, workArea.height - height)),
    width,
    height,
  }
}

/** The main window as the mini player and back; every window hears the mode (`window:mode`). */
export function createMiniPlayer(deps: { port?: MiniPlayerPort; events: EventHub }) {
  let mini = false
  return {
    set(next: boolean): WindowMode {
      const port = deps.port
      if (!port || next === mini) return { mini }
      if (next) {
        const area = port.workArea()
        if (!area) return { mini }
        port.enter(miniPlayerBounds(area))
      } else port.leave()
      mini = next
      deps.events.emit('window:mode', { mini })
      return { mini }
    },
    isMini: () => mini,
  }
}
