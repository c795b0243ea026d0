import Store from 'electron-store'
import type { KeyValueStore } from '../core/ports'

/** electron-store behind the core's KeyValueStore port. */
export function createElectronStore(name = 'cadence'): KeyValueStore {
  const store = new Store<Record<string, unknown>>({ name })
  return {
    get: <T>(key: string) => store.get(key) as T | undefined,
    set: (key, value) => store.set(key, value),
    delete: (key) => store.delete(key),
  }
}
