import type { CadenceBridge } from '@shared/ipc/bridge'

/**
 * The renderer's one way to the desktop: stores call these, never `window.cadence` directly,
 * so a store test mocks this one module.
 */
export function cadence(): CadenceBridge {
  if (!window.cadence) throw new Error('Cadence bridge is missing: the preload did not run')
  return window.cadence
}

export const invoke: CadenceBridge['invoke'] = (...args) => cadence().invoke(...args)
export const on: CadenceBridge['on'] = (event, listener) => cadence().on(event, listener)
