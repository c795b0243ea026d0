import { ref, shallowRef } from 'vue'
import type { Ref, ShallowRef } from 'vue'
import type { CadenceError } from '@shared/errors'
import { toCadenceError } from '@renderer/services/cadence-error'

export type AsyncStatus = 'idle' | 'loading' | 'ready' | 'error'

export interface AsyncState<T> {
  status: Ref<AsyncStatus>
  data: ShallowRef<T | undefined>
  error: ShallowRef<CadenceError | undefined>
  /** Runs the loader; only the newest call's answer is kept. */
  load: () => Promise<void>
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
