import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Conf from 'conf'
import { afterEach, describe, expect, it } from 'vitest'
import { openJsonFileStore } from '@main/core/settings/json-store'

const dirs: string[] = []
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cadence-json-store-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('openJsonFileStore', () => {
  it('keeps values across a reopen, in the file electron-store (conf) reads and writes', () => {
    const dir = folder()
    const file = join(dir, 'cadence.json')
    // A file electron-store wrote before: its library (conf) is the reference for the format.
    const before = new Conf<Record<string, unknown>>({ cwd: dir, configName: 'cadence', projectName: 'x' })
    before.set('settings', { theme: 'dark', volume: 0.5 })
    before.set('session:src-1', { queue: [1, 2, 3] })
    const store = openJsonFileStore(file)
    expect(store.get('settings')).toEqual({ theme: 'dark', volume: 0.5 })
    expect(store.get('session:src-1')).toEqual({ queue: [1, 2, 3] })
    store.set('sources', [{ id: 'src-2', url: 'http://nas.local:3000' }])
    store.delete('session:src-1')
    expect(readFileSync(file, 'utf8')).toBe(
      JSON.stringify(
        {
          settings: { theme: 'dark', volume: 0.5 },
          sources: [{ id: 'src-2', url: 'http://nas.local:3000' }],
        },
        undefined,
        '\t',
      ),
    )
    const after = new Conf<Record<string, unknown>>({ cwd: dir, configName: 'cadence', projectName: 'x' })
    expect(after.store).toEqual({
      settings: { theme: 'dark', volume: 0.5 },
      sources: [{ id: 'src-2', url: 'http://nas.local:3000' }],
    })
    expect(openJsonFileStore(file).get('sources')).toEqual([{ id: 'src-2', url: 'http://nas.local:3000' }])
    // Written through a temporary file renamed over it: nothing else is left in the folder.
    expect(readdirSync(dir)).toEqual(['cadence.json'])
  })

  it('gives copies: changing what was read or written changes nothing stored', () => {
    const store = openJsonFileStore(join(folder(), 'cadence.json'))
    const value = { folders: ['/music'], at: new Date(0) }
    store.set('musicFolders', value)
    value.folders.push('/elsewhere')
    const read = store.get<{ folders: string[]; at: string }>('musicFolders')!
    read.folders.push('/third')
    expect(store.get('musicFolders')).toEqual({ folders: ['/music'], at: '1970-01-01T00:00:00.000Z' })
    expect(store.get('missing')).toBeUndefined()
  })

  it('starts empty without a file, and refuses a damaged one with a SyntaxError', () => {
    const dir = folder()
    expect(openJsonFileStore(join(dir, 'nested', 'cadence.json')).get('settings')).toBeUndefined()
    const damaged = join(dir, 'damaged.json')
    writeFileSync(damaged, '{"settings": {"theme": "dark"')
    expect(() => openJsonFileStore(damaged)).toThrow(SyntaxError)
    writeFileSync(damaged, '[1, 2]')
    expect(() => openJsonFileStore(damaged)).toThrow(SyntaxError)
    const nested = openJsonFileStore(join(dir, 'nested', 'cadence.json'))
    nested.set('windowState', { width: 900 })
    expect(JSON.parse(readFileSync(join(dir, 'nested', 'cadence.json'), 'utf8'))).toEqual({
      windowState: { width: 900 },
    })
  })
})
