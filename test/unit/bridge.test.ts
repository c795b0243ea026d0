import { describe, expect, it } from 'vitest'
import { createBridge } from '@shared/ipc/bridge'
import { CadenceError } from '@shared/errors'

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

  it('rejects with a CadenceError carrying the typed error', async () => {
    const bridge = createBridge({
      invoke: async () => ({
        ok: false,
        error: { name: 'DataSourceError', kind: 'network', message: 'down', endpoint: '/x' },
      }),
      subscribe: () => () => {},
    })
    const error = await bridge.invoke('catalog:toplists').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CadenceError)
    expect(error).toMatchObject({ kind: 'network', message: 'down', endpoint: '/x' })
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
