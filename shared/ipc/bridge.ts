import { CadenceError, isErrorPayload } from '../errors'
import { EVENT_NAMES, invokeChannels } from './contract'
import type { ChannelArgs, ChannelResult, EventMap, EventName, InvokeChannel } from './contract'

/**
 * How the bridge reaches main. Electron's preload passes `ipcRenderer`; the end-to-end tests pass a
 * transport over Playwright's `exposeBinding` to the same core running in the test process.
 */
export interface BridgeTransport {
  /** Sends one call; resolves to the `IpcResult` main answered with. */
  invoke(channel: InvokeChannel, args: unknown): Promise<unknown>
  /** Subscribes to an event from main; returns an unsubscribe function. */
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void
}

/** `window.cadence`: functions and event subscriptions only, built from the IPC contract. */
export interface CadenceBridge {
  invoke<C extends InvokeChannel>(
    channel: C,
    ...args: undefined extends ChannelArgs<C> ? [args?: ChannelArgs<C>] : [args: ChannelArgs<C>]
  ): Promise<ChannelResult<C>>
  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void
}

export function createBridge(transport: BridgeTransport): CadenceBridge {
  const channels = new Set<string>(Object.keys(invokeChannels))
  const events = new Set<string>(EVENT_NAMES)

  return Object.freeze({
    async invoke(channel: InvokeChannel, args?: unknown) {
      if (!channels.has(channel)) {
        throw new CadenceError({
          kind: 'unknown-channel',
          channel,
          message: `Unknown channel ${String(channel)}`,
        })
      }
      let answer: unknown
      try {
        answer = await transport.invoke(channel, args)
      } catch (cause) {
        throw new CadenceError({
          kind: 'unavailable',
          channel,
          message: `The app's main process did not answer (${cause instanceof Error ? cause.message : String(cause)})`,
        })
      }
      if (typeof answer === 'object' && answer !== null && 'ok' in answer) {
        const result = answer as { ok: boolean; value?: unknown; error?: unknown }
        if (result.ok) return result.value
        if (isErrorPayload(result.error)) throw new CadenceError(result.error)
      }
      throw new CadenceError({
        kind: 'internal',
        channel,
        message: 'The main process sent a malformed answer',
      })
    },
    on(event: EventName, listener: (payload: never) => void) {
      if (!events.has(event))
        throw new CadenceError({ kind: 'unknown-channel', message: `Unknown event ${event}` })
      return transport.subscribe(event, listener as (payload: unknown) => void)
    },
  }) as CadenceBridge
}
