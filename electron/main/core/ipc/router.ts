import { invokeChannels } from '@shared/ipc/schemas'
import type { ChannelResult, InvokeChannel, IpcResult, ParsedChannelArgs } from '@shared/ipc/contract'
import { CadenceError } from '@shared/errors'
import type { Logger } from '../log'

/** Who is calling: the URL of the frame that sent the call. */
export interface CallContext {
  senderUrl: string
}

export type Handler<C extends InvokeChannel> = (
  args: ParsedChannelArgs<C>,
  context: CallContext,
) => ChannelResult<C> | Promise<ChannelResult<C>>

export type Handlers = { [C in InvokeChannel]: Handler<C> }

export interface IpcRouterOptions {
  /** Only our own renderer may call main. */
  isTrustedSender: (senderUrl: string) => boolean
  log: Logger
}

export interface IpcRouter {
  readonly channels: readonly InvokeChannel[]
  /** Validates the sender and the arguments, runs the handler, and always answers with an `IpcResult`. */
  invoke(channel: string, rawArgs: unknown, context: CallContext): Promise<IpcResult>
}

/** The one wrapper every handler is registered through. */
export function createIpcRouter(handlers: Handlers, options: IpcRouterOptions): IpcRouter {
  const channels = Object.keys(invokeChannels) as InvokeChannel[]
  const known = new Set<string>(channels)

  return {
    channels,
    async invoke(channel, rawArgs, context) {
      const fail = (error: CadenceError): IpcResult => ({ ok: false, error: error.toPayload() })
      if (!known.has(channel)) {
        return fail(new CadenceError({ kind: 'unknown-channel', channel, message: 'Unknown channel' }))
      }
      const name = channel as InvokeChannel
      if (typeof context?.senderUrl !== 'string' || !options.isTrustedSender(context.senderUrl)) {
        options.log.warn('refused a call from an untrusted sender', { channel })
        return fail(
          new CadenceError({ kind: 'forbidden', channel, message: 'This window may not call the app' }),
        )
      }
      // A live object (a throwing getter, a proxy) can make parsing itself throw: that is a bad argument too.
      let parsed: ReturnType<(typeof invokeChannels)[InvokeChannel]['args']['safeParse']>
      try {
        parsed = invokeChannels[name].args.safeParse(rawArgs)
      } catch {
        return fail(
          new CadenceError({
            kind: 'invalid-argument',
            channel,
            message: `Invalid arguments for ${channel}`,
          }),
        )
      }
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        return fail(
          new CadenceError({
            kind: 'invalid-argument',
            channel,
            message: `Invalid arguments for ${channel}`,
            ...(issue ? { detail: `${issue.path.join('.') || 'args'} ${issue.message}` } : {}),
          }),
        )
      }
      const handler = handlers[name] as ((args: unknown, context: CallContext) => unknown) | undefined
      if (!handler) {
        return fail(
          new CadenceError({ kind: 'unavailable', channel, message: 'Not available in this version' }),
        )
      }
      try {
        const value = await handler(parsed.data, context)
        return { ok: true, value }
      } catch (error) {
        if (error instanceof CadenceError) {
          if (!error.channel) return { ok: false, error: { ...error.toPayload(), channel } }
          return fail(error)
        }
        options.log.error('handler failed', {
          channel,
          error: error instanceof Error ? error.stack : String(error),
        })
        return fail(
          new CadenceError({ kind: 'internal', channel, message: 'Something went wrong in the app' }),
        )
      }
    },
  }
}
