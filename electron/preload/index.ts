import { contextBridge, ipcRenderer } from 'electron'
import { createBridge } from '@shared/ipc/bridge'

/** `window.cadence`: functions and event subscriptions from the IPC contract; never ipcRenderer itself. */
const bridge = createBridge({
  invoke: (channel, args) => ipcRenderer.invoke(channel, args),
  subscribe: (event, listener) => {
    const handler = (_event: Electron.IpcRendererEvent, payload: unknown) => listener(payload)
    ipcRenderer.on(event, handler)
    return () => void ipcRenderer.removeListener(event, handler)
  },
})

contextBridge.exposeInMainWorld('cadence', bridge)
