import { z } from 'zod'

/** A channel spec: the schema for its one argument and (type only) its result. */
export interface ChannelSpec<A extends z.ZodType, R> {
  args: A
  /** Phantom: never read at run time. */
  result?: R
}

/** `channel<Result>().args(schema)`: one entry of `invokeChannels` (`./schemas`). */
export const channel = <R>() => ({
  args: <A extends z.ZodType>(args: A): ChannelSpec<A, R> => ({ args }),
})

/** A channel that takes no argument. */
export const none = z.undefined()
