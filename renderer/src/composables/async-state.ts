import { ref, shallowRef } from 'vue'
import type { Ref, ShallowRef } from 'vue'
import { asCadenceError } from '@shared/errors'
import type { CadenceError } from '@shared/errors'

export type AsyncStatus = 'idle' | 'loading' | 'ready' | 'error'

export interface AsyncState<T> {
  status: Ref<AsyncStatus>
  data: ShallowRef<T | undefined>
  error: ShallowRef<CadenceError | undefined>
  /** Runs the loader; only the newest call's answer is kept. */
  load: () => Promise<void>
}

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

/** Explicit async state for a view section: status, data and error, newest request wins. */
export function useAsyncState<T>(loader: () => Promise<T>): AsyncState<T> {
  const status = ref<AsyncStatus>('idle')
  const data = shallowRef<T>()
  const error = shallowRef<CadenceError>()
  let generation = 0

  async function load() {
    const mine = ++generation
    status.value = 'loading'
    error.value = undefined
    try {
      const value = await loader()
      if (mine !== generation) return
      data.value = value
      status.value = 'ready'
    } catch (cause) {
      if (mine !== generation) return
      error.value = toCadenceError(cause)
      status.value = 'error'
    }
  }

  return { status, data, error, load }
}
