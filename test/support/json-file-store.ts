import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { KeyValueStore } from '@main/core/ports'

/** A KeyValueStore persisted as one JSON file, the way electron-store keeps config.json. */
export function createJsonFileStore(path: string): KeyValueStore & { text(): string } {
  const read = (): Record<string, unknown> => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {})
  const write = (data: Record<string, unknown>) => writeFileSync(path, JSON.stringify(data, null, '\t'))
  return {
    get: <T>(key: string) => read()[key] as T | undefined,
    set(key, value) {
      write({ ...read(), [key]: value })
    },
    delete(key) {
      const data = read()
      delete data[key]
      write(data)
    },
    text: () => (existsSync(path) ? readFileSync(path, 'utf8') : ''),
  }
}
