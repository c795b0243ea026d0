import { afterEach, describe, expect, it, vi } from 'vitest'
import { createCore, createMemoryStore } from '@main/core'
import type { EventMap } from '@shared/ipc/contract'
import { createTestCipher } from '../support/test-cipher'
import { startFixtureSource } from '../support/fixture-source'

const APP = 'app://cadence/index.html'
const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step()
})

describe('createCore: the QR login of a source that sends no image', () => {
  it('draws the code itself as a PNG with the QR library main loads only then', async () => {
    // The fixture source answers /connect/qr/create with an empty qrimg, as real servers may.
    const source = await startFixtureSource()
    cleanups.push(source.close)
    const core = createCore({
      store: createMemoryStore(),
      cipher: createTestCipher(),
      isTrustedSender: (url) => url.startsWith('app://cadence/'),
      appInfo: { name: 'Cadence', version: '1.2.3', platform: 'linux' },
      windows: { openLogin: vi.fn(), closeLogin: vi.fn() },
      openExternal: vi.fn(),
      onPlayerState: vi.fn(),
      copyText: vi.fn(),
    })
    cleanups.push(() => core.dispose())
    const shown: Array<EventMap['auth:qr']> = []
    core.events.subscribe(
      (event, payload) => event === 'auth:qr' && shown.push(payload as EventMap['auth:qr']),
    )
    const invoke = (channel: 'sources:add' | 'sources:activate' | 'auth:start-qr', args?: unknown) =>
      core.router.invoke(channel, args, { senderUrl: APP })
    const added = (await invoke('sources:add', { url: source.url })) as { ok: true; value: { id: string } }
    await invoke('sources:activate', { id: added.value.id })
    await invoke('auth:start-qr')
    await vi.waitFor(() => expect(shown.at(-1)?.phase).toBe('waiting'), { timeout: 10_000 })
    const image = shown.at(-1)!.qrimg!
    expect(image).toMatch(/^data:image\/png;base64,/)
    const png = Buffer.from(image.split(',')[1], 'base64')
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG')
    // 256 pixels wide, as asked of the library.
    expect(png.readUInt32BE(16)).toBe(256)
    await core.router.invoke('auth:cancel-qr', undefined, { senderUrl: APP })
  })
})
