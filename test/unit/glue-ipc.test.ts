import { describe, expect, it, vi } from 'vitest'

const handled = new Map<string, (event: unknown, args: unknown) => unknown>()
const handleCalls: string[] = []
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: (event: unknown, args: unknown) => unknown) => {
      handleCalls.push(channel)
      handled.set(channel, handler)
    },
    removeHandler: (channel: string) => handled.delete(channel),
  },
}))

const { registerIpc } = await import('@main/glue/ipc')
const { createCore, createMemoryStore } = await import('@main/core')
const { INVOKE_CHANNELS } = await import('@shared/ipc/contract')
const { createTestCipher } = await import('../support/test-cipher')

describe('registerIpc', () => {
  const core = createCore({
    store: createMemoryStore(),
    cipher: createTestCipher(),
    isTrustedSender: (url) => url.startsWith('file:///app/renderer/'),
    appInfo: { name: 'Cadence', version: '1', platform: 'linux' },
  })
  const sent: Array<[string, unknown]> = []
  const window = {
    isDestroyed: () => false,
    webContents: { send: (e: string, p: unknown) => sent.push([e, p]) },
  }
  const dispose = registerIpc(core.router, core.events, () => [window as never])

  it('registers every channel of the contract exactly once', () => {
    expect([...handleCalls].sort()).toEqual([...INVOKE_CHANNELS].sort())
    expect(new Set(handleCalls).size).toBe(handleCalls.length)
  })

  it('passes the sender frame URL to the router, which refuses strangers', async () => {
    const info = handled.get('app:info')!
    expect(await info({ senderFrame: { url: 'file:///app/renderer/index.html' } }, undefined)).toMatchObject({
      ok: true,
    })
    expect(await info({ senderFrame: { url: 'https://evil.example/' } }, undefined)).toMatchObject({
      ok: false,
      error: { kind: 'forbidden' },
    })
    expect(await info({ senderFrame: null }, undefined)).toMatchObject({
      ok: false,
      error: { kind: 'forbidden' },
    })
  })

  it('forwards core events to every window', () => {
    core.playerCommand('toggle')
    expect(sent).toEqual([['player:command', { command: 'toggle' }]])
  })

  it('removes every handler on dispose', () => {
    dispose()
    expect(handled.size).toBe(0)
  })
})
