import { isErrorPayload } from '../errors'
import type { ErrorPayload } from '../errors'
import { EVENT_NAMES, INVOKE_CHANNELS } from './contract'
import type { ChannelArgs, ChannelResult, EventMap, EventName, InvokeChannel } from './contract'

/**
 * How the preload reaches main. Electron's preload passes `ipcRenderer`; the end-to-end tests pass a
 * transport over Playwright bindings to the same core running in the test process.
 */
export interface BridgeTransport {
  /** Sends one call; resolves to the `IpcResult` main answered with. */
  invoke(channel: InvokeChannel, args: unknown): Promise<unknown>
  /** Subscribes to an event from main; returns an unsubscribe function. */
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void
}

/**
 * `window.cadence`: functions and event subscriptions only, built from the IPC contract.
 *
 * It crosses `contextBridge`, which copies every value into the page's world and keeps no class: an
 * `Error` arrives as a bare `Error(message)`. So it carries errors as data: `invoke` resolves with the
 * value or rejects with a plain `ErrorPayload`, and the renderer rebuilds the typed `CadenceError` in its
 * own world (`renderer/src/services/cadence.ts`).
 */
export interface CadenceBridge {
  invoke<C extends InvokeChannel>(
    channel: C,
    ...args: undefined extends ChannelArgs<C> ? [args?: ChannelArgs<C>] : [args: ChannelArgs<C>]
  ): Promise<ChannelResult<C>>
  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void
}

const payload = (kind: ErrorPayload['kind'], message: string, channel?: string): ErrorPayload => ({
  name: 'IpcError',
  kind,
  message,
  ...(channel === undefined ? {} : { channel }),
})

/** Builds what the preload exposes. Runs in the preload's world; rejects only with plain payloads. */
export function createBridge(transport: BridgeTransport): CadenceBridge {
  const channels = new Set<string>(INVOKE_CHANNELS)
  const events = new Set<string>(EVENT_NAMES)

  return Object.freeze({
    async invoke(channel: InvokeChannel, args?: unknown) {
      if (!channels.has(channel)) {
        throw payload('unknown-channel', `Unknown channel ${String(channel)}`, String(channel))
      }
      let answer: unknown
      try {
        answer = await transport.invoke(channel, args)
      } catch (cause) {
        const reason = cause instanceof Error ? cause.message : String(cause)
        throw payload('unavailable', `The app's main process did not answer (${reason})`, channel)
      }
      if (typeof answer === 'object' && answer !== null && 'ok' in answer) {
        const result = answer as { ok: boolean; value?: unknown; error?: unknown }
        if (result.ok) return result.value
        if (isErrorPayload(result.error)) throw result.error
      }
      throw payload('internal', 'The main process sent a malformed answer', channel)
    },
    on(event: EventName, listener: (payload: never) => void) {
      if (!events.has(event)) throw new Error(`Unknown event ${String(event)}`)
      return transport.subscribe(event, listener as (payload: unknown) => void)
    },
  }) as CadenceBridge
}
