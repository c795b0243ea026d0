/**
 * Typed errors that cross process boundaries as plain values (IPC cannot carry class instances).
 * Every failure a person can see has a kind, a message they can act on, and where it happened.
 */

export const DATA_SOURCE_ERROR_KINDS = [
  'network',
  'timeout',
  'http',
  'api',
  'unauthorized',
  'invalid-response',
  'cancelled',
] as const
export type DataSourceErrorKind = (typeof DATA_SOURCE_ERROR_KINDS)[number]

export const IPC_ERROR_KINDS = [
  'invalid-argument',
  'unknown-channel',
  'forbidden',
  'internal',
  'unavailable',
] as const
export type IpcErrorKind = (typeof IPC_ERROR_KINDS)[number]

export type ErrorKind = DataSourceErrorKind | IpcErrorKind

export interface ErrorPayload {
  name: 'DataSourceError' | 'IpcError'
  kind: ErrorKind
  message: string
  /** Data-source endpoint path, e.g. `/playlist/recommend`. */
  endpoint?: string
  /** IPC channel, e.g. `catalog:recommend-playlists`. */
  channel?: string
  /** The server's envelope `code`, when it sent one. */
  code?: number
  /** The HTTP status, when there was a response. */
  status?: number
  /**
   * Technical text for logs and the "Details" a person may open (which schema check failed, and where):
   * never the message itself.
   */
  detail?: string
}

/** An error with a kind, as thrown by the bridge in the renderer and by the core in main. */
export class CadenceError extends Error {
  readonly kind: ErrorKind
  readonly endpoint?: string
  readonly channel?: string
  readonly code?: number
  readonly status?: number
  readonly detail?: string

  constructor(payload: Omit<ErrorPayload, 'name'> & { name?: ErrorPayload['name'] }) {
    super(payload.message)
    this.name = payload.name ?? 'IpcError'
    this.kind = payload.kind
    this.endpoint = payload.endpoint
    this.channel = payload.channel
    this.code = payload.code
    this.status = payload.status
    if (payload.detail !== undefined) this.detail = payload.detail
  }

  toPayload(): ErrorPayload {
    const { kind, message, endpoint, channel, code, status, detail } = this
    const payload: ErrorPayload = {
      name: this.name as ErrorPayload['name'],
      kind,
      message,
      endpoint,
      channel,
      code,
      status,
    }
    if (detail !== undefined) payload.detail = detail
    return payload
  }
}

/** A failure talking to a data source. The API client throws nothing else. */
export class DataSourceError extends CadenceError {
  declare readonly kind: DataSourceErrorKind
  constructor(payload: Omit<ErrorPayload, 'name' | 'kind'> & { kind: DataSourceErrorKind }) {
    super({ ...payload, name: 'DataSourceError' })
  }
}

export function isErrorPayload(value: unknown): value is ErrorPayload {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return (
    (v.name === 'DataSourceError' || v.name === 'IpcError') &&
    typeof v.kind === 'string' &&
    typeof v.message === 'string'
  )
}

/**
 * Anything caught, as a CadenceError: itself, a payload that crossed a process boundary (the bridge
 * rejects with one), or anything else as `internal` with its message.
 */
export function asCadenceError(cause: unknown): CadenceError {
  if (cause instanceof CadenceError) return cause
  if (isErrorPayload(cause)) {
    return cause.name === 'DataSourceError'
      ? new DataSourceError(cause as ErrorPayload & { kind: DataSourceErrorKind })
      : new CadenceError(cause)
  }
  return new CadenceError({
    kind: 'internal',
    message: cause instanceof Error ? cause.message : String(cause),
  })
}
