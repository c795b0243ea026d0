import { describe, expect, it } from 'vitest'
import { createBridge } from '@shared/ipc/bridge'
import { CadenceError } from '@shared/errors'
import { copyValue, exposeInMainWorld } from '../electron/stand-in/context-bridge'

describe('createBridge', () => {
  it('resolves with the value of an ok result', async () => {
    const bridge = createBridge({
      invoke: async (channel, args) => ({ ok: true, value: { channel, args } }),
      subscribe: () => () => {},
    })
    expect(await bridge.invoke('catalog:playlist', { id: 3 })).toEqual({
      channel: 'catalog:playlist',
      args: { id: 3 },
    })
  })

  it('rejects with the plain error payload (data, not a class, so it survives contextBridge)', async () => {
    const bridge = createBridge({
      invoke: async () => ({
        ok: false,
        error: { name: 'DataSourceError', kind: 'network', message: 'down', endpoint: '/x' },
      }),
      subscribe: () => () => {},
    })
    const error = await bridge.invoke('catalog:toplists').catch((e: unknown) => e)
    expect(error).not.toBeInstanceOf(Error)
    expect(error).toEqual({ name: 'DataSourceError', kind: 'network', message: 'down', endpoint: '/x' })
  })

  it('refuses channels that are not in the contract without sending them', async () => {
    let sent = false
    const bridge = createBridge({
      invoke: async () => ((sent = true), { ok: true }),
      subscribe: () => () => {},
    })
    // @ts-expect-error not a channel
    await expect(bridge.invoke('fs:read')).rejects.toMatchObject({ kind: 'unknown-channel' })
    expect(sent).toBe(false)
  })

  it('turns a dead transport into an unavailable error', async () => {
    const bridge = createBridge({
      invoke: () => Promise.reject(new Error('gone')),
      subscribe: () => () => {},
    })
    await expect(bridge.invoke('app:info')).rejects.toMatchObject({ kind: 'unavailable' })
  })

  it('exposes only functions', () => {
    const bridge = createBridge({ invoke: async () => ({ ok: true }), subscribe: () => () => {} })
    for (const value of Object.values(bridge)) expect(typeof value).toBe('function')
    expect(Object.isFrozen(bridge)).toBe(true)
  })
})

describe("contextBridge's copy rules (the stand-in used by the e2e and electron tests)", () => {
  class Custom {
    constructor(public value: number) {}
    get twice() {
      return this.value * 2
    }
  }

  it('reduces an error to Error(message): class, name and own properties are gone', () => {
    const copied = copyValue(new CadenceError({ kind: 'cancelled', message: 'newer search' }), 'to-page')
    expect(copied).toBeInstanceOf(Error)
    expect(copied).not.toBeInstanceOf(CadenceError)
    expect(copied).toMatchObject({ message: 'newer search' })
    expect((copied as { kind?: string }).kind).toBeUndefined()
  })

  it('drops prototypes, drops nested promises, freezes copies and proxies functions', async () => {
    const copied = copyValue(
      { custom: new Custom(2), nested: { p: Promise.resolve(1) }, list: [1, { a: 2 }] },
      'to-page',
    ) as Record<string, unknown>
    expect(Object.getPrototypeOf(copied.custom)).toBe(Object.prototype)
    expect(copied.custom).toEqual({ value: 2 })
    expect((copied.nested as { p?: unknown }).p).toBeUndefined()
    expect(Object.isFrozen(copied)).toBe(true)
    expect(Object.isFrozen(copied.list)).toBe(true)

    const original = async (arg: { n: number }) => {
      throw Object.assign(new TypeError(`bad ${arg.n}`), { code: 7 })
    }
    const proxied = copyValue(original, 'to-page') as typeof original
    expect(proxied).not.toBe(original)
    const error = await proxied({ n: 3 }).catch((e: unknown) => e)
    expect(error).not.toBeInstanceOf(TypeError)
    expect(error).toMatchObject({ message: 'bad 3' })
    expect((error as { code?: number }).code).toBeUndefined()
  })

  it('refuses symbols and binding over an existing property', () => {
    expect(() => copyValue(Symbol('x'), 'to-page')).toThrow(/symbol/)
    const target = { cadence: 1 }
    expect(() => exposeInMainWorld(target, 'cadence', {})).toThrow(/existing property/)
  })

  it('lets the typed error kind cross as data: the bridge rejects with a payload the page can read', async () => {
    const page: Record<string, unknown> = {}
    exposeInMainWorld(
      page,
      'cadence',
      createBridge({
        invoke: async () => ({
          ok: false,
          error: { name: 'DataSourceError', kind: 'cancelled', message: 'x' },
        }),
        subscribe: () => () => {},
      }),
    )
    const reason = await (page.cadence as ReturnType<typeof createBridge>)
      .invoke('catalog:search', { keywords: 'a' })
      .catch((e: unknown) => e)
    expect(reason).toMatchObject({ kind: 'cancelled' })
  })
})
