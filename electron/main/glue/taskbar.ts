import { join } from 'node:path'
import { app, Menu, nativeImage } from 'electron'
import type { BrowserWindow, MenuItemConstructorOptions } from 'electron'
import type { PlayerCommandName } from '@shared/ipc/contract'
import type { TaskbarPorts, TrayMenuItem } from '../core'

/**
 * Glue for the taskbar and the dock: the core's thumbnail-toolbar buttons, taskbar progress and dock
 * menu (core/taskbar) as Electron calls. Icons are resources/taskbar/<name>.png (with @2x).
 */
export function createTaskbarPorts(options: {
  iconDir: string
  mainWindow: () => BrowserWindow | null
  onCommand: (command: PlayerCommandName) => void
}): TaskbarPorts {
  const window = () => {
    const open = options.mainWindow()
    return open && !open.isDestroyed() ? open : null
  }
  const icons = new Map<string, Electron.NativeImage>()
  const icon = (name: string) => {
    let image = icons.get(name)
    if (!image) icons.set(name, (image = nativeImage.createFromPath(join(options.iconDir, `${name}.png`))))
    return image
  }
  return {
    setThumbarButtons(buttons) {
      const open = window()
      if (!open) return false
      return open.setThumbarButtons(
        buttons.map((button) => ({
          icon: icon(button.icon),
          tooltip: button.tooltip,
          flags: [button.enabled ? 'enabled' : 'disabled'],
          click: () => options.onCommand(button.command),
        })),
      )
    },
    setProgress({ value, mode }) {
      window()?.setProgressBar(value, { mode })
    },
    setDockMenu(items) {
      app.dock?.setMenu(Menu.buildFromTemplate(items.map((item) => menuItem(item, options.onCommand))))
    },
  }
}

function menuItem(
  item: TrayMenuItem,
  onCommand: (command: PlayerCommandName) => void,
): MenuItemConstructorOptions {
  if (item.type === 'separator') return { type: 'separator' }
  const action = item.action
  return {
    id: item.id,
    label: item.label,
    enabled: item.enabled,
    click: action?.type === 'command' ? () => onCommand(action.command) : undefined,
  }
}
