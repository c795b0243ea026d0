import { describe, expect, it } from 'vitest'
import { createIpcRouter } from '@main/core/ipc/router'
import type { Handlers } from '@main/core/ipc/router'
import { silentLogger } from '@main/core/log'
import { IPC_ID_MAX } from '@shared/ipc/collection-song'
import { INVOKE_CHANNELS } from '@shared/ipc/contract'
import { createCore, createMemoryStore } from '@main/core'
import { createTestCipher } from '../support/test-cipher'

/**
 * Issue 33, item 7: the smaller defences against a hostile data source, tested where they stand.
 */

const trusted = { senderUrl: 'app://cadence/index.html' }
const routerOptions = {
  isTrustedSender: (url: string) => url.startsWith('app://cadence/'),
  log: silentLogger('test'),
}

describe('IPC ids from a hostile data source', () => {
  // A source names a song with a huge id; the renderer hands it back as it got it.
  const long = 'x'.repeat(IPC_ID_MAX + 1)
  const song = (id: string) => ({ id, name: 'n', tns: [], artists: [{ id, name: 'a' }] })
  const calls: [string, unknown][] = [
    ['catalog:playlist', { id: long }],
    ['catalog:artist', { id: long }],
    ['catalog:like', { id: long, like: true }],
    ['player:resolve', { id: long }],
    ['albums:detail', { id: long }],
    ['likes:song', { id: long }],
    ['account:add-songs', { id: 1, songIds: [1, long] }],
    ['account:subscribe', { id: long, subscribe: true }],
    ['downloads:remove', { ids: ['a', long] }],
    ['collection:remove', { id: 'p1', songIds: ['a', long] }],
    ['collection:add', { id: 'p1', songs: [song('a'), song(long)] }],
    ['downloads:add', { songs: [{ ...song('a'), artists: [{ id: long, name: 'a' }] }] }],
    ['notify:track-changed', { id: long, name: 'n', artists: 'a' }],
  ]

  it('refuses an over-long id in any argument, also inside arrays, with a typed bad-argument error', async () => {
    const reached: string[] = []
    const handlers = new Proxy({} as Handlers, {
      get: (_, channel: string) => () => void reached.push(channel),
    })
    const router = createIpcRouter(handlers, routerOptions)
    for (const [channel, args] of calls) {
      const answer = await router.invoke(channel, args, trusted)
      expect(answer, channel).toMatchObject({
        ok: false,
        error: { name: 'IpcError', kind: 'invalid-argument' },
      })
    }
    expect(reached).toEqual([])
    // The same calls with an id at the cap pass the door.
    const atCap = 'y'.repeat(IPC_ID_MAX)
    for (const [channel, args] of calls) {
      const fitted = JSON.parse(JSON.stringify(args).replaceAll(long, atCap)) as unknown
      expect(await router.invoke(channel, fitted, trusted), channel).toMatchObject({ ok: true })
    }
    expect(reached).toEqual(calls.map(([channel]) => channel))
  })
})

describe('app:open-external (item 7f)', () => {
  it('is gone: no renderer call opens an address of its choosing in the system browser', async () => {
    const opened: string[] = []
    const core = createCore({
      store: createMemoryStore(),
      cipher: createTestCipher(),
      isTrustedSender: (url) => url.startsWith('app://cadence/'),
      appInfo: { name: 'Cadence', version: '0.0.0', platform: 'linux' },
      openExternal: (url) => void opened.push(url),
      autoSignInBuiltin: false,
      probeSources: false,
    })
    try {
      expect(INVOKE_CHANNELS).not.toContain('app:open-external')
      for (const url of ['https://example.com/', 'http://192.168.1.1/admin']) {
        expect(await core.router.invoke('app:open-external', { url }, trusted)).toMatchObject({
          ok: false,
          error: { kind: 'unknown-channel' },
        })
      }
      expect(opened).toEqual([])
    } finally {
      core.dispose()
    }
  })
})
