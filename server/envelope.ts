import type { FastifyReply } from 'fastify'

export interface Envelope<T> {
  code: 0 | -1
  message: string
  data: T | null
  timestamp: string
}

export function ok<T>(data: T): Envelope<T> {
  return { code: 0, message: 'Success', data, timestamp: new Date().toISOString() }
}

export function failure(message: string): Envelope<null> {
  return { code: -1, message, data: null, timestamp: new Date().toISOString() }
}

/** An error that becomes an envelope with `code: -1` and the given HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export const LOGIN_REQUIRED =
  'Please log in first: scan the QR code to sign in, then send the credential in the Token header.'

export const badRequest = (message: string): ApiError => new ApiError(400, message)
export const notFound = (message: string): ApiError => new ApiError(404, message)
export const loginRequired = (): ApiError => new ApiError(401, LOGIN_REQUIRED)

export function sendFailure(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(failure(message))
}
