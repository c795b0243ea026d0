import { readCapped } from '../api/read-capped'

/** No scrobbling answer is larger than this; a larger one is an error, not read. */
export const ANSWER_MAX_BYTES = 64 * 1024
/** A request that has not answered by then has failed (the listens wait for the next try). */
export const REQUEST_TIMEOUT_MS = 20_000

/** A service's answer: status, headers and its JSON body (undefined when it was not JSON). */
export interface Answer {
  status: number
  headers: Headers
  body: unknown
}

/**
 * Sends one request and reads at most `ANSWER_MAX_BYTES` of the answer. A network failure, a timeout, a
 * body too large or too deep throws; a body that is not JSON is `undefined` (the caller decides).
 */
export async function request(fetcher: typeof fetch, url: string, init: RequestInit, what: string) {
  const response = await fetcher(url, {
    ...init,
    redirect: 'error',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  })
  const bytes = await readCapped(response, ANSWER_MAX_BYTES, what)
  let body: unknown
  try {
    body = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    body = undefined
  }
  return { status: response.status, headers: response.headers, body } satisfies Answer
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
