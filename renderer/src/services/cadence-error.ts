import { asCadenceError } from '@shared/errors'
import type { CadenceError } from '@shared/errors'

type ErrorListener = (error: CadenceError) => void
const errorListeners = new Set<ErrorListener>()

/**
 * Every failure a store catches passes through here, so one place (the auth store) can notice an expired
 * session (`unauthorized`) wherever it shows up. Returns an unsubscribe function.
 */
export function onCaughtError(listener: ErrorListener): () => void {
  errorListeners.add(listener)
  return () => void errorListeners.delete(listener)
}

/** Turns anything thrown into a CadenceError and tells the listeners. */
export function toCadenceError(cause: unknown): CadenceError {
  const error = asCadenceError(cause)
  for (const listener of errorListeners) listener(error)
  return error
}
