import { Menu, Tray, nativeImage } from 'electron'
import type { MenuItemConstructorOptions } from 'electron'
import type { PlayerState } from '@shared/ipc/contract'
import type { Language } from '@shared/settings'
import { buildTrayMenu, trayTooltip } from '../core'
import type { TrayAction } from '../core'

export interface AppTrayOptions {
  iconPath: string
  onAction: (action: TrayAction) => void
  isWindowVisible: () => boolean
  isDesktopLyricsShown?: () => boolean
  /** The language chosen in Settings; the tray is rebuilt when settings change. */
  language?: () => Language
  /** Clicking the icon shows the window. */
  onClick: () => void
  /** Whether a downloaded update waits for a restart. */
  isUpdateReady?: () => boolean
  /** Whether a private session is on (nothing recorded in history). */
  isPrivateSession?: () => boolean
}

/** The tray icon: tooltip and menu built by the core (core/tray/menu.ts) from what is playing. */
export function createAppTray(options: AppTrayOptions) {
  const icon = nativeImage.createFromPath(options.iconPath).resize({ width: 16, height: 16 })
  const tray = new Tray(icon)
  let state: PlayerState | null = null

  const render = () => {
    tray.setToolTip(trayTooltip(state))
    const template: MenuItemConstructorOptions[] = buildTrayMenu(state, {
      windowVisible: options.isWindowVisible(),
      desktopLyrics: options.isDesktopLyricsShown?.() ?? false,
      language: options.language?.() ?? 'en',
      updateReady: options.isUpdateReady?.() ?? false,
      privateSession: options.isPrivateSession?.() ?? false,
    }).map((item) =>
      item.type === 'separator'
        ? { type: 'separator' }
        : {
            id: item.id,
            label: item.label,
            enabled: item.enabled,
            click: item.action ? () => options.onAction(item.action!) : undefined,
          },
    )
    tray.setContextMenu(Menu.buildFromTemplate(template))
  }
  tray.on('click', () => options.onClick())
  render()

  return {
    update(next: PlayerState | null) {
      state = next
      render()
    },
    /** The window was shown or hidden: the menu says the other. */
    refresh: render,
    destroy: () => tray.destroy(),
  }
}
