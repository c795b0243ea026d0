import { exposeInMainWorld } from './context-bridge'
import { decode, encode } from './wire'
import { installSchemeFetch } from '../../support/scheme-fetch'

/**
 * The renderer side of the stand-in, bundled into each window's init script before the app's built
 * preload: the `electron` module a sandboxed preload may require (`contextBridge`, `ipcRenderer`).
 * `ipcRenderer` talks to main over one Playwright binding, which it takes off `window` first so the page
 * cannot call it (as the page cannot reach Electron's IPC); events from main arrive through
 * `__standinEmit`, which the page could call too (a difference from Electron, noted in electron.ts).
 */

type Binding = (message: string) => Promise<string>
type Listener = (event: { sender: unknown }, ...args: unknown[]) => void

const scope = globalThis as unknown as Record<string, unknown>
const binding = scope.__standinIpc as Binding
delete scope.__standinIpc

const listeners = new Map<string, Listener[]>()

// Privileged schemes with `supportFetchAPI`: `fetch` on them reaches main's protocol.handle.
const protocolBinding = scope.__standinProtocol as Binding | undefined
delete scope.__standinProtocol
const fetchSchemes = (scope.__standinFetchSchemes as string[] | undefined) ?? []
delete scope.__standinFetchSchemes
if (protocolBinding) {
  for (const scheme of fetchSchemes) installSchemeFetch(globalThis, scheme, protocolBinding)
}

const ipcRenderer = {
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    const answer = decode(await binding(encode({ kind: 'invoke', channel, args }))) as {
      value?: unknown
      error?: string
    }
    if (typeof answer.error === 'string') throw new Error(answer.error)
    return answer.value
  },
  send(channel: string, ...args: unknown[]): void {
    void binding(encode({ kind: 'send', channel, args }))
  },
  on(channel: string, listener: Listener) {
    listeners.set(channel, [...(listeners.get(channel) ?? []), listener])
    return ipcRenderer
  },
  once(channel: string, listener: Listener) {
    const once: Listener = (event, ...args) => {
      ipcRenderer.removeListener(channel, once)
      listener(event, ...args)
    }
    return ipcRenderer.on(channel, once)
  },
  removeListener(channel: string, listener: Listener) {
    listeners.set(
      channel,
      (listeners.get(channel) ?? []).filter((item) => item !== listener),
    )
    return ipcRenderer
  },
  off(channel: string, listener: Listener) {
    return ipcRenderer.removeListener(channel, listener)
  },
  removeAllListeners(channel?: string) {
    if (channel === undefined) listeners.clear()
    else listeners.delete(channel)
    return ipcRenderer
  },
}

Object.defineProperty(globalThis, '__standinEmit', {
  value: (message: string) => {
    const { channel, args } = decode(message) as { channel: string; args: unknown[] }
    for (const listener of listeners.get(channel) ?? []) listener({ sender: ipcRenderer }, ...args)
  },
})

export const electron = Object.freeze({
  ipcRenderer,
  contextBridge: Object.freeze({
    exposeInMainWorld: (apiKey: string, api: unknown) => exposeInMainWorld(globalThis, apiKey, api),
  }),
})
