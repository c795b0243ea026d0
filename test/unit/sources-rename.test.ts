import { afterEach, describe, expect, it } from 'vitest'
import { createCore, createMemoryStore } from '@main/core'
import { SOURCES_KEY } from '@main/core/sources/registry'
import type { EventMap, IpcResult, SourceList } from '@shared/ipc/contract'
import { createTestCipher } from '../support/test-cipher'
import { startFixtureSource } from '../support/fixture-source'

const APP = { senderUrl: 'app://cadence/index.html' }
const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step()
})

describe('sources:rename', () => {
  it('renames an added source in main’s registry (kept across starts), checked at the door', async () => {
    const source = await startFixtureSource()
    cleanups.push(source.close)
    const store = createMemoryStore()
    const build = () =>
      createCore({
        store,
        cipher: createTestCipher(),
        isTrustedSender: (url) => url.startsWith('app://cadence/'),
        appInfo: { name: 'Cadence', version: '1.2.3', platform: 'linux' },
      })
    const core = build()
    cleanups.push(() => core.dispose())
    const lists: SourceList[] = []
    core.events.subscribe((event, payload) => {
      if (event === 'sources:changed') lists.push(payload as EventMap['sources:changed'])
    })
    const invoke = (channel: string, args: unknown) =>
      core.router.invoke(channel as never, args as never, APP) as Promise<IpcResult<unknown>>

    const added = (await invoke('sources:add', { url: source.url })) as IpcResult<{
      id: string
      name: string
    }>
    if (!added.ok) throw new Error(added.error.message)
    expect(added.value.name).toBe(new URL(source.url).host)

    expect(await invoke('sources:rename', { id: added.value.id, name: '  Living room  ' })).toMatchObject({
      ok: true,
      value: { id: added.value.id, name: 'Living room', url: source.url },
    })
    expect(lists.at(-1)?.sources.find((s) => s.id === added.value.id)?.name).toBe('Living room')
    // Refused: an empty or too long name, another field, the built-in library, an unknown source.
    for (const args of [
      { id: added.value.id, name: '   ' },
      { id: added.value.id, name: 'x'.repeat(101) },
      { id: added.value.id, name: 'ok', url: 'http://elsewhere' },
      { id: 'builtin', name: 'Mine' },
      { id: 'src-nope', name: 'Mine' },
    ]) {
      expect(await invoke('sources:rename', args)).toMatchObject({
        ok: false,
        error: { kind: 'invalid-argument' },
      })
    }
    // Kept by main: a new start reads it back.
    expect(JSON.stringify(store.snapshot()[SOURCES_KEY])).toContain('Living room')
    const again = build()
    cleanups.push(() => again.dispose())
    const listed = (await again.router.invoke('sources:list', undefined, APP)) as IpcResult<SourceList>
    expect(listed.ok && listed.value.sources.find((s) => s.id === added.value.id)?.name).toBe('Living room')
  })
})
