import { asCadenceError } from '@shared/errors'
import type { CadenceBridge } from '@shared/ipc/bridge'

/**
 * The renderer's one way to the desktop: stores call these, never `window.cadence` directly,
 * so a store test mocks this one module.
 */
export function cadence(): CadenceBridge {
  if (!window.cadence) throw new Error('Cadence bridge is missing: the preload did not run')
  return window.cadence
}

/**
 * A call to main. `window.cadence` rejects with a plain error payload (a class does not survive
 * `contextBridge`); the typed `CadenceError` is rebuilt here, in the renderer's own world.
 */
export const invoke: CadenceBridge['invoke'] = (...args) =>
  cadence()
    .invoke(...args)
    .catch((reason: unknown) => {
      throw asCadenceError(reason)
    })
export const on: CadenceBridge['on'] = (event, listener) => cadence().on(event, listener)
