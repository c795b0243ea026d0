import { DataSourceError } from '@shared/errors'

/** The `DataSourceError`s the client builds in more than one place. */

export function invalid(endpoint: string, status: number | undefined, message: string) {
  return new DataSourceError({ kind: 'invalid-response', endpoint, status, message })
}

export function cancelled(endpoint: string) {
  return new DataSourceError({ kind: 'cancelled', endpoint, message: 'The request was cancelled' })
}

export function unauthorized(endpoint: string | undefined, status?: number, code?: number, message?: string) {
  return new DataSourceError({
    kind: 'unauthorized',
    endpoint,
    status,
    code,
    message: message?.trim() || 'You are signed out of this data source. Please log in again.',
  })
}
