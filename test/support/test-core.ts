import { createCore, createMemoryStore, type Core, type CoreDeps } from '@main/core'
import type { IpcResult } from '@shared/ipc/contract'
import { createTestCipher } from './test-cipher'

/** What the renderer's window sends as: the packaged app's own page. */
export const TRUSTED = { senderUrl: 'app://cadence/index.html' }

/**
 * The main process's core as a test builds it: a memory store, the test cipher, the app's own page as
 * the only trusted sender. `deps` adds the sources, folders and ports the test is about.
 */
export function createTestCore(deps: Partial<CoreDeps> = {}): Core {
  return createCore({
    store: createMemoryStore(),
    cipher: createTestCipher(),
    isTrustedSender: (url) => url.startsWith('app://cadence/'),
    appInfo: { name: 'Cadence', version: '0.0.0-test', platform: 'linux' },
    ...deps,
  })
}

/** Calls a channel as the app's page does; a failed call throws with its kind and message. */
export async function invokeOk<T>(core: Core, channel: string, args?: unknown): Promise<T> {
  const result = (await core.router.invoke(channel as never, args as never, TRUSTED)) as IpcResult<T>
  if (!result.ok) throw new Error(`${channel}: ${result.error.kind} ${result.error.message}`)
  return result.value
}
