import { ipcMain } from 'electron'
import type { BrowserWindow } from 'electron'
import type { EventHub, IpcRouter } from '../core'

/** Registers every contract channel once, through the core's router (sender check + argument parsing). */
export function registerIpc(router: IpcRouter, events: EventHub, windows: () => BrowserWindow[]): () => void {
  for (const channel of router.channels) {
    ipcMain.handle(channel, (event, args: unknown) =>
      router.invoke(channel, args, { senderUrl: event.senderFrame?.url ?? '' }),
    )
  }
  const unsubscribe = events.subscribe((event, payload) => {
    for (const window of windows()) {
      if (!window.isDestroyed()) window.webContents.send(event, payload)
    }
  })
  return () => {
    unsubscribe()
    for (const channel of router.channels) ipcMain.removeHandler(channel)
  }
}
