import { describe, expect, it } from 'vitest'
import { createIpcRouter } from '@main/core/ipc/router'
import type { Handlers } from '@main/core/ipc/router'
import { silentLogger } from '@main/core/log'
import { IPC_ID_MAX } from '@shared/ipc/collection-song'
import { INVOKE_CHANNELS } from '@shared/ipc/contract'
import { createCore, createMemoryStore } from '@main/core'
import type { ConfirmRequest } from '@main/core'
import { CONFIRMED_SETTINGS } from '@main/core/settings/handlers'
import type { IpcResult } from '@shared/ipc/contract'
import type { Settings } from '@shared/settings'
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

describe('settings that weaken a protection (item 7a)', () => {
  const build = (confirm?: (request: ConfirmRequest) => Promise<boolean>) =>
    createCore({
      store: createMemoryStore(),
      cipher: createTestCipher(),
      isTrustedSender: (url) => url.startsWith('app://cadence/'),
      appInfo: { name: 'Cadence', version: '0.0.0', platform: 'linux' },
      autoSignInBuiltin: false,
      probeSources: false,
      confirm,
    })
  const update = async (core: ReturnType<typeof build>, patch: unknown) => {
    const answer = (await core.router.invoke('settings:update', patch, trusted)) as IpcResult<Settings>
    if (!answer.ok) throw new Error(answer.error.message)
    return answer.value
  }

  it('are not turned on by IPC alone: main asks in its own dialog, and a no leaves them off and says so', async () => {
    const asked: ConfirmRequest[] = []
    const core = build(async (request) => (asked.push(request), false))
    try {
      for (const key of ['phoneSignIn', 'allowInsecureStorage'] as const) {
        const answer = await update(core, { [key]: true, theme: 'dark' })
        expect(answer[key]).toBe(false)
        expect(core.settings.get()[key]).toBe(false)
        // The rest of the patch is applied.
        expect(answer.theme).toBe('dark')
      }
      expect(asked.map((r) => r.title)).toEqual([
        CONFIRMED_SETTINGS.phoneSignIn.title,
        CONFIRMED_SETTINGS.allowInsecureStorage.title,
      ])
    } finally {
      core.dispose()
    }
  })

  it('are turned on after a yes, and off again without a question', async () => {
    let asked = 0
    const core = build(async () => (asked++, true))
    try {
      expect((await update(core, { phoneSignIn: true, allowInsecureStorage: true })).phoneSignIn).toBe(true)
      expect(core.settings.get()).toMatchObject({ phoneSignIn: true, allowInsecureStorage: true })
      expect(asked).toBe(2)
      // Already on: no second question; off: none either.
      await update(core, { phoneSignIn: true })
      expect(await update(core, { phoneSignIn: false, allowInsecureStorage: false })).toMatchObject({
        phoneSignIn: false,
        allowInsecureStorage: false,
      })
      expect(asked).toBe(2)
    } finally {
      core.dispose()
    }
  })

  it('stay off where main has no way to ask', async () => {
    const core = build()
    try {
      expect(await update(core, { phoneSignIn: true, allowInsecureStorage: true })).toMatchObject({
        phoneSignIn: false,
        allowInsecureStorage: false,
      })
    } finally {
      core.dispose()
    }
  })
})
