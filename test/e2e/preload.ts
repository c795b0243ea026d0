import { createBridge } from '@shared/ipc/bridge'
import type { CadenceBridge } from '@shared/ipc/bridge'
import type { EventName } from '@shared/ipc/contract'
import { MEDIA_SCHEME } from '@shared/player/media-url'
import { exposeInMainWorld } from '../electron/stand-in/context-bridge'
import { installSchemeFetchOverHttp } from '../support/scheme-http'

/**
 * The end-to-end tests' preload: the same `createBridge` as Electron's preload, over a transport made
 * of Playwright bindings to the core running in the test process, exposed with `contextBridge`'s copy
 * rules (errors reduced to `Error(message)`, prototypes dropped), so what crosses it as a class fails here
 * as it would in Electron.
 */
declare global {
  interface Window {
    cadence: CadenceBridge
    __cadenceInvoke(channel: string, args: unknown): Promise<unknown>
    __cadenceEmit(event: string, payload: unknown): void
  }
}

const listeners = new Map<string, Set<(payload: unknown) => void>>()
const invoke = window.__cadenceInvoke

Object.defineProperty(window, '__cadenceEmit', {
  value: (event: string, payload: unknown) => {
    for (const listener of listeners.get(event) ?? []) listener(payload)
  },
})

const bridge = createBridge({
  invoke: async (channel, args) =>
    JSON.parse((await invoke(channel, args === undefined ? undefined : JSON.stringify(args))) as string),
  subscribe: (event: EventName, listener) => {
    const set = listeners.get(event) ?? new Set()
    listeners.set(event, set)
    set.add(listener)
    return () => void set.delete(listener)
  },
})
exposeInMainWorld(window, 'cadence', bridge)

// What Electron's supportFetchAPI privilege gives the media scheme (see scheme-http.ts): on the app's
// own origin, which the harness's static server answers with main's handler.
if (location.origin.startsWith('http')) installSchemeFetchOverHttp(window, MEDIA_SCHEME, location.origin)
