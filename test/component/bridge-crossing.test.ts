import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { CadenceError } from '@shared/errors'
import { createBridge } from '@shared/ipc/bridge'
import type { ErrorPayload } from '@shared/errors'
import { invoke } from '@renderer/services/cadence'
import { useSearchStore } from '@renderer/stores/search'
import { exposeInMainWorld } from '../electron/stand-in/context-bridge'

/**
 * The real preload bridge exposed on `window` with contextBridge's copy rules, and the renderer's real
 * services and stores above it: an error kind must survive the crossing. With the typed error built in the
 * preload (the old bridge), the copy leaves a bare `Error(message)` and every test here fails.
 */
let answer: (channel: string) => unknown

beforeAll(() => {
  // Bound once, as the preload does: exposeInMainWorld defines a property that cannot be replaced.
  exposeInMainWorld(
    window,
    'cadence',
    createBridge({ invoke: async (channel) => answer(channel), subscribe: () => () => {} }),
  )
})
beforeEach(() => setActivePinia(createPinia()))

const fail = (error: Omit<ErrorPayload, 'name'> & { name?: ErrorPayload['name'] }) => ({
  ok: false,
  error: { name: 'DataSourceError', ...error },
})

describe('errors across contextBridge', () => {
  it('arrive in the renderer as a CadenceError with their kind, endpoint and status', async () => {
    answer = () => fail({ kind: 'http', message: 'Server error', endpoint: '/song/detail', status: 503 })
    const error = await invoke('player:resolve', { id: 1 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CadenceError)
    expect(error).toMatchObject({
      kind: 'http',
      endpoint: '/song/detail',
      status: 503,
      name: 'DataSourceError',
    })
  })

  it('a cancelled search shows no error', async () => {
    answer = () => fail({ kind: 'cancelled', message: 'A newer search replaced this one' })
    const search = useSearchStore()
    await search.search('abc')
    expect(search.error).toBeUndefined()
    expect(search.status).not.toBe('error')
  })

  it('a main process that does not answer is `unavailable`, not an internal error', async () => {
    answer = () => {
      throw new Error("Error invoking remote method 'app:info': reply was never sent")
    }
    const error = await invoke('app:info').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CadenceError)
    expect(error).toMatchObject({ kind: 'unavailable', channel: 'app:info' })
  })
})
