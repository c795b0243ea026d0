import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryStore, type Core } from '@main/core'
import type { BuiltinLaunch } from '@main/core'
import { createApiClient } from '@main/core/api/client'
import { startDataSource } from '@server/index'
import type { IpcResult, PhoneAccess } from '@shared/ipc/contract'
import { createTestCore } from '../support/test-core'
import { createTestCipher } from '../support/test-cipher'
import { confirmOnPhone } from '../support/phone'

const APP = { senderUrl: 'app://cadence/index.html' }
const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step()
})

/**
 * Another device on the network, played by a second loopback address: 127.0.0.2 reaches a server bound to
 * 0.0.0.0 but not one bound to 127.0.0.1 only (Linux routes all of 127/8 to the loopback interface).
 */
const NETWORK_IP = '127.0.0.2'
const reachable = async (port: number) => {
  try {
    return (await fetch(`http://${NETWORK_IP}:${port}/health`)).status
  } catch {
    return 'refused'
  }
}

async function setup() {
  const dataDir = await mkdtemp(join(tmpdir(), 'cadence-phone-'))
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
  const store = createMemoryStore()
  const cipher = createTestCipher()
  const launches: BuiltinLaunch[] = []
  const build = () => {
    const core = createTestCore({
      store,
      cipher,
      appInfo: { name: 'Cadence', version: '0', platform: 'linux' },
      // The utility process, in-process: the real server with the options the core chose.
      spawnBuiltin: async (launch) => {
        launches.push(launch)
        const handle = await startDataSource({
          dataDir,
          host: launch.host,
          port: launch.port,
          ownerPassphrase: launch.passphrase,
          instanceNonce: launch.nonce,
          requireLogin: launch.requireLogin,
          demo: 20,
        })
        return { url: handle.url, stop: () => handle.close() }
      },
      networkAddresses: () => [NETWORK_IP],
      // The person says yes in main's dialog (test/unit/hostile-small.test.ts: a no changes nothing).
      confirm: async () => true,
    })
    cleanups.push(() => core.builtin.stop())
    cleanups.push(() => core.dispose())
    return core
  }
  return { store, launches, build }
}

async function call<T>(core: Core, channel: string, args?: unknown): Promise<T> {
  const result = (await core.router.invoke(channel, args, APP)) as IpcResult
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`)
  return result.value as T
}

const port = (url: string) => Number(new URL(url).port)

describe('"Let my phone sign in" with the built-in data source', () => {
  it('opens the data source to the network with a kept passphrase a phone signs in with, and closes it again', async () => {
    const t = await setup()
    const core = t.build()
    await core.builtin.start()
    expect(await core.start()).toMatchObject({ status: 'signed-in' })
    const loopbackUrl = core.sources.get('builtin')!.url
    expect(t.launches[0].host).toBe('127.0.0.1')
    expect(await reachable(port(loopbackUrl))).toBe('refused')
    expect(await call<PhoneAccess>(core, 'sources:phone-access')).toMatchObject({
      enabled: false,
      addresses: [],
    })

    await call(core, 'settings:update', { phoneSignIn: true })
    await vi.waitFor(() => expect(t.launches).toHaveLength(2), { timeout: 20_000 })
    await vi.waitFor(() => expect(core.sources.get('builtin')?.state).toBe('ready'), { timeout: 20_000 })
    const access = await call<PhoneAccess>(core, 'sources:phone-access', { show: true })
    const networkPort = port(core.sources.get('builtin')!.url)
    expect(access).toEqual({
      enabled: true,
      listening: true,
      addresses: [`http://${NETWORK_IP}:${networkPort}`],
      passphrase: t.launches[1].passphrase,
      kept: 'encrypted',
    })
    expect(JSON.stringify(t.store.snapshot())).not.toContain(access.passphrase)
    // The app stays signed in (and its calls work) across the relaunch: the new passphrase revoked its
    // credential, so it signs itself in again once the new process is ready (the source now lists nothing
    // without a login).
    await vi.waitFor(
      async () => expect((await call<unknown[]>(core, 'catalog:toplists')).length).toBeGreaterThan(0),
      {
        timeout: 20_000,
      },
    )
    expect(await call(core, 'auth:status')).toMatchObject({ status: 'signed-in' })

    // Another device opens the address shown; the owner's phone confirms with the passphrase shown.
    const device = createApiClient({ baseUrl: access.addresses[0], getCredential: () => undefined })
    const { unikey } = await device.qrKey()
    const { qrurl } = await device.qrCreate(unikey, false)
    expect(new URL(qrurl).host).toBe(`${NETWORK_IP}:${networkPort}`)
    expect((await confirmOnPhone(qrurl, { passphrase: 'not the passphrase' })).status).toBe(403)
    expect((await device.qrCheck(unikey)).cookie ?? '').toBe('')
    expect((await confirmOnPhone(qrurl, { passphrase: access.passphrase })).ok).toBe(true)
    const check = await device.qrCheck(unikey)
    expect(check.status).toBe(2)
    const signedIn = createApiClient({
      baseUrl: access.addresses[0],
      getCredential: () => check.cookie,
    })
    expect((await signedIn.loginStatus()).id).toBeGreaterThan(0)

    // Off again: loopback only, and the passphrase is no longer shown.
    await call(core, 'settings:update', { phoneSignIn: false })
    await vi.waitFor(() => expect(t.launches).toHaveLength(3), { timeout: 20_000 })
    await vi.waitFor(() => expect(core.sources.get('builtin')?.state).toBe('ready'), { timeout: 20_000 })
    expect(t.launches[2].host).toBe('127.0.0.1')
    expect(await reachable(port(core.sources.get('builtin')!.url))).toBe('refused')
    const closed = await call<PhoneAccess>(core, 'sources:phone-access', { show: true })
    expect(closed.passphrase).toBeUndefined()
    expect(closed.addresses).toEqual([])
    expect(await call(core, 'auth:status')).toMatchObject({ status: 'signed-in' })
  }, 60_000)

  it('starts on the network with the same passphrase and port after the app restarts', async () => {
    const t = await setup()
    const first = t.build()
    await call(first, 'settings:update', { phoneSignIn: true })
    await first.builtin.start()
    const before = await call<PhoneAccess>(first, 'sources:phone-access', { show: true })
    await first.builtin.stop()
    first.dispose()

    const second = t.build()
    await second.builtin.start()
    expect(await second.start()).toMatchObject({ status: 'signed-in' })
    const after = await call<PhoneAccess>(second, 'sources:phone-access', { show: true })
    expect(after.passphrase).toBe(before.passphrase)
    expect(after.passphrase).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/)
    expect(after.addresses).toEqual(before.addresses)
    expect(await reachable(port(after.addresses[0]))).toBe(200)
  }, 60_000)
})
