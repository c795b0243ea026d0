import { existsSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { app } from 'electron'
import { openJsonFileStore } from '../core'
import type { KeyValueStore } from '../core'

export interface OpenedStore {
  store: KeyValueStore
  /** Set when the file could not be read: where the damaged file was kept (the store starts empty). */
  recovered?: string
}

/**
 * `<userData>/<name>.json` behind the core's KeyValueStore port (core/settings/json-store.ts: the file
 * electron-store kept, read and written the same way). A damaged file (not JSON) is moved aside and the
 * app starts with defaults instead of not starting; the caller says so to the person.
 */
export function openElectronStore(name = 'cadence'): OpenedStore {
  const file = join(app.getPath('userData'), `${name}.json`)
  try {
    return { store: openJsonFileStore(file) }
  } catch (error) {
    if (!(error instanceof SyntaxError) || !existsSync(file)) throw error
    const kept = `${file}.damaged-${Date.now()}`
    renameSync(file, kept)
    return { store: openJsonFileStore(file), recovered: kept }
  }
}
