import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { KeyValueStore } from '../ports'

/** A copy of a value as JSON keeps it: what a later read gets back, never the caller's own object. */
const copy = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T))

/**
 * The core's KeyValueStore as one JSON file (`<userData>/cadence.json`), in electron-store's format: an
 * object of top-level keys, tab-indented. Read once when opened and kept in memory; every change writes
 * the whole file to a temporary file beside it and renames it over the old one, so a crash leaves the old
 * file or the new one, never half of one. A file that is not a JSON object throws a SyntaxError (the glue
 * moves it aside and starts with an empty store). Values go in and come out as JSON copies.
 */
export function openJsonFileStore(path: string): KeyValueStore {
  let data: Record<string, unknown> = {}
  let text: string | undefined
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  if (text !== undefined && text.trim() !== '') {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new SyntaxError(`${path} does not hold a JSON object`)
    }
    data = parsed as Record<string, unknown>
  }
  let writes = 0
  const save = () => {
    mkdirSync(dirname(path), { recursive: true })
    const temporary = `${path}.${process.pid}.${++writes}.tmp`
    writeFileSync(temporary, JSON.stringify(data, undefined, '\t'))
    renameSync(temporary, path)
  }
  return {
    get: <T>(key: string) => (Object.hasOwn(data, key) ? copy(data[key] as T) : undefined),
    set(key, value) {
      if (value === undefined) delete data[key]
      else data[key] = copy(value)
      save()
    },
    delete(key) {
      if (!Object.hasOwn(data, key)) return
      delete data[key]
      save()
    },
  }
}
