import { existsSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { app } from 'electron'
import Store from 'electron-store'
import type { KeyValueStore } from '../core'

export interface OpenedStore {
  store: KeyValueStore
  /** Set when the file could not be read: where the damaged file was kept (the store starts empty). */
  recovered?: string
}

/**
 * electron-store behind the core's KeyValueStore port. A damaged file (not JSON) is moved aside and the
 * app starts with defaults instead of not starting; the caller says so to the person.
 */
export function openElectronStore(name = 'cadence'): OpenedStore {
  const wrap = (store: Store<Record<string, unknown>>): KeyValueStore => ({
    get: <T>(key: string) => store.get(key) as T | undefined,
    set: (key, value) => store.set(key, value),
    delete: (key) => store.delete(key),
  })
  try {
    return { store: wrap(new Store<Record<string, unknown>>({ name })) }
  } catch (error) {
    const file = join(app.getPath('userData'), `${name}.json`)
    if (!(error instanceof SyntaxError) || !existsSync(file)) throw error
    const kept = `${file}.damaged-${Date.now()}`
    renameSync(file, kept)
    return { store: wrap(new Store<Record<string, unknown>>({ name })), recovered: kept }
  }
}
