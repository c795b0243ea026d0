import { describe, expect, it, vi } from 'vitest'
import { createMemoryStore } from '@main/core'
import { createVault } from '@main/core/auth/vault'
import { silentLogger } from '@main/core/log'
import {
  createPhoneAccess,
  makePhonePassphrase,
  PHONE_PORT_KEY,
  reachableAddresses,
} from '@main/core/sources/phone-access'
import type { BuiltinLaunch } from '@main/core/sources/phone-access'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type { Settings } from '@shared/settings'
import { createTestCipher } from '../support/test-cipher'

function setup(options: { keepSignedIn?: boolean; encryption?: boolean } = {}) {
  const store = createMemoryStore()
  const cipher = createTestCipher({ available: options.encryption ?? true })
  let settings: Settings = { ...DEFAULT_SETTINGS, keepSignedIn: options.keepSignedIn ?? true }
  const build = () => {
    const vault = createVault({ store, cipher, settings: () => settings, log: silentLogger('v') })
    let n = 0
    return createPhoneAccess({
      settings: () => settings,
      vault,
      store,
      makePassphrase: () => `pass-${++n}-${Math.random().toString(36).slice(2, 8)}`,
      networkAddresses: () => ['192.168.1.20'],
      log: silentLogger('p'),
    })
  }
  const launches: BuiltinLaunch[] = []
  let nextPort = 41000
  const spawn = vi.fn(async (launch: BuiltinLaunch) => {
    launches.push(launch)
    const port = launch.port || ++nextPort
    const host = launch.host === '0.0.0.0' ? '0.0.0.0' : '127.0.0.1'
    return { url: `http://${host}:${port}`, stop: async () => {} }
  })
  return {
    store,
    launches,
    spawn,
    build,
    setPhone: (on: boolean) => (settings = { ...settings, phoneSignIn: on }),
  }
}

describe('phone access to the built-in data source', () => {
  it('stays on loopback with a passphrase for this run only while the setting is off', async () => {
    const t = setup()
    const phone = t.build()
    const child = await phone.starter(t.spawn)(() => {})
    expect(t.launches[0]).toMatchObject({ host: '127.0.0.1', port: 0 })
    expect(phone.passphrase()).toBe(t.launches[0].passphrase)
    expect(child.url).toBe('http://127.0.0.1:41001')
    expect(phone.info(true)).toEqual({ enabled: false, listening: false, addresses: [], kept: 'encrypted' })
    // Nothing about it is stored.
    expect(JSON.stringify(t.store.snapshot())).not.toContain(t.launches[0].passphrase)
    expect(phone.needsRelaunch()).toBe(false)
  })

  it('with the setting on, binds to the network and shows the address and a kept passphrase', async () => {
    const t = setup()
    const phone = t.build()
    const starter = phone.starter(t.spawn)
    await starter(() => {})
    t.setPhone(true)
    expect(phone.needsRelaunch()).toBe(true)
    const child = await starter(() => {})
    const launch = t.launches[1]
    expect(launch).toMatchObject({ host: '0.0.0.0', port: 0 })
    // The app itself talks to it on loopback.
    expect(child.url).toBe('http://127.0.0.1:41002')
    expect(phone.passphrase()).toBe(launch.passphrase)
    // The passphrase only for "Show".
    expect(phone.info(true).passphrase).toBeUndefined()
    expect(phone.info(true, true)).toEqual({
      enabled: true,
      listening: true,
      addresses: ['http://192.168.1.20:41002'],
      passphrase: launch.passphrase,
      kept: 'encrypted',
    })
    // Not listening yet (starting): no address, but the passphrase to have ready.
    expect(phone.info(false, true)).toMatchObject({
      listening: false,
      addresses: [],
      passphrase: launch.passphrase,
    })
    // Kept encrypted, never in plain text.
    expect(JSON.stringify(t.store.snapshot())).not.toContain(launch.passphrase)
    expect(phone.needsRelaunch()).toBe(false)
  })

  it('keeps the passphrase and the port across restarts of the app', async () => {
    const t = setup()
    t.setPhone(true)
    await t.build().starter(t.spawn)(() => {})
    const first = t.launches[0]
    expect(t.store.get(PHONE_PORT_KEY)).toBe(41001)
    const again = t.build()
    await again.starter(t.spawn)(() => {})
    expect(t.launches[1]).toEqual({
      host: '0.0.0.0',
      port: 41001,
      passphrase: first.passphrase,
      nonce: expect.any(String),
      requireLogin: true,
    })
    expect(t.launches[1].nonce).not.toBe(t.launches[0].nonce)
    expect(again.info(true).addresses).toEqual(['http://192.168.1.20:41001'])
  })

  it('forgets a remembered port that is taken, so the next start takes a free one', async () => {
    const t = setup()
    t.setPhone(true)
    t.store.set(PHONE_PORT_KEY, 5000)
    const starter = t.build().starter(t.spawn)
    t.spawn.mockRejectedValueOnce(new Error('EADDRINUSE'))
    await expect(starter(() => {})).rejects.toThrow('EADDRINUSE')
    expect(t.launches).toEqual([])
    expect(t.store.get(PHONE_PORT_KEY)).toBeUndefined()
    await starter(() => {})
    expect(t.launches[0].port).toBe(0)
  })

  it('hides the passphrase again once the setting is off', async () => {
    const t = setup()
    t.setPhone(true)
    const phone = t.build()
    await phone.starter(t.spawn)(() => {})
    t.setPhone(false)
    expect(phone.needsRelaunch()).toBe(true)
    expect(phone.info(true)).toEqual({ enabled: false, listening: false, addresses: [], kept: 'encrypted' })
    await phone.starter(t.spawn)(() => {})
    expect(t.launches[1].host).toBe('127.0.0.1')
  })

  it('keeps the passphrase in memory only when the user does not keep sign-ins, and says so', async () => {
    const t = setup({ keepSignedIn: false })
    t.setPhone(true)
    const phone = t.build()
    await phone.starter(t.spawn)(() => {})
    expect(phone.info(true).kept).toBe('memory')
    expect(JSON.stringify(t.store.snapshot())).not.toContain(t.launches[0].passphrase)
  })
})

describe('makePhonePassphrase', () => {
  it('makes four groups of four characters that are easy to read and type', () => {
    let i = 0
    const passphrase = makePhonePassphrase((max) => i++ % max)
    expect(passphrase).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/)
    expect(passphrase).not.toMatch(/[01ilo]/)
  })
})

describe('reachableAddresses', () => {
  it('lists IPv4 addresses another device can open, without loopback or link-local ones', () => {
    expect(
      reachableAddresses({
        lo: [
          { address: '127.0.0.1', family: 'IPv4', internal: true },
          { address: '::1', family: 'IPv6', internal: true },
        ],
        eth0: [
          { address: '192.168.1.20', family: 'IPv4', internal: false },
          { address: 'fe80::1', family: 'IPv6', internal: false },
        ],
        wlan0: [
          { address: '10.0.0.7', family: 4, internal: false },
          { address: '169.254.3.4', family: 'IPv4', internal: false },
        ],
        docker0: undefined,
      }),
    ).toEqual(['192.168.1.20', '10.0.0.7'])
  })
})
