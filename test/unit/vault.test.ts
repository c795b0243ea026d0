import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createVault, VAULT_KEY } from '@main/core/auth/vault'
import { createMemoryStore } from '@main/core/ports'
import type { SecretCipher } from '@main/core/ports'
import { silentLogger } from '@main/core/log'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type { Settings } from '@shared/settings'
import { createTestCipher } from '../support/test-cipher'
import { createJsonFileStore } from '../support/json-file-store'

const SECRET = 'cred_Zm9vYmFyYmF6cXV4cXV1eF9zZWNyZXQ'

function setup(
  options: {
    settings?: Partial<Settings>
    cipher?: SecretCipher
    store?: ReturnType<typeof createMemoryStore>
  } = {},
) {
  const store = options.store ?? createMemoryStore()
  let settings: Settings = { ...DEFAULT_SETTINGS, ...options.settings }
  const cipher = options.cipher ?? createTestCipher()
  const make = () => createVault({ store, cipher, settings: () => settings, log: silentLogger('vault') })
  return {
    store,
    cipher,
    vault: make(),
    /** A new vault over the same store: what the next start of the app sees. */
    restart: make,
    setSettings(patch: Partial<Settings>) {
      settings = { ...settings, ...patch }
    },
  }
}

describe('createVault', () => {
  let dir: string | undefined
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
    dir = undefined
  })

  it('keeps the credential encrypted per data source and reads it back after a restart', () => {
    const t = setup()
    t.vault.set('builtin', SECRET)
    t.vault.set('src-2', 'other-credential-value')
    expect(t.vault.get('builtin')).toBe(SECRET)
    expect(JSON.stringify(t.store.snapshot())).not.toContain(SECRET)
    expect(t.store.snapshot()[VAULT_KEY]).toMatchObject({ builtin: { v: 1, mode: 'encrypted' } })
    const next = t.restart()
    expect(next.get('builtin')).toBe(SECRET)
    expect(next.get('src-2')).toBe('other-credential-value')
    expect(next.storage('builtin')).toEqual({
      mode: 'encrypted',
      encryptionUnavailable: false,
      backend: 'test_keyring',
    })
  })

  it('writes only cipher text to a real JSON settings file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'cadence-vault-'))
    const store = createJsonFileStore(join(dir, 'config.json'))
    const cipher = createTestCipher()
    const vault = createVault({ store, cipher, settings: () => DEFAULT_SETTINGS, log: silentLogger('v') })
    vault.set('builtin', SECRET)
    const text = store.text()
    expect(text).toContain('"credentials"')
    expect(text).not.toContain(SECRET)
    expect(text).not.toContain(Buffer.from(SECRET).toString('base64'))
    const again = createVault({ store, cipher, settings: () => DEFAULT_SETTINGS, log: silentLogger('v') })
    expect(again.get('builtin')).toBe(SECRET)
  })

  it('without a keyring keeps the credential in memory only and says so', () => {
    const t = setup({ cipher: createTestCipher({ available: false }) })
    t.vault.set('builtin', SECRET)
    expect(t.vault.get('builtin')).toBe(SECRET)
    expect(t.store.snapshot()[VAULT_KEY]).toBeUndefined()
    expect(t.vault.storage('builtin')).toMatchObject({
      mode: 'memory',
      encryptionUnavailable: true,
      backend: 'basic_text',
    })
    expect(t.restart().get('builtin')).toBeUndefined()
  })

  it('persists with weak protection once the user consents, and wipes it when consent is withdrawn', () => {
    const t = setup({ cipher: createTestCipher({ available: false }) })
    t.vault.set('builtin', SECRET)
    t.setSettings({ allowInsecureStorage: true })
    t.vault.applySettings()
    expect(t.store.snapshot()[VAULT_KEY]).toMatchObject({ builtin: { mode: 'insecure' } })
    expect(JSON.stringify(t.store.snapshot())).not.toContain(SECRET)
    expect(t.vault.storage('builtin').mode).toBe('insecure')
    expect(t.restart().get('builtin')).toBe(SECRET)

    t.setSettings({ allowInsecureStorage: false })
    t.vault.applySettings()
    expect(t.store.snapshot()[VAULT_KEY]).toBeUndefined()
    expect(t.vault.get('builtin')).toBe(SECRET)
    expect(t.vault.storage('builtin').mode).toBe('memory')
  })

  it('"keep me signed in" off: memory only, and the stored copy is wiped', () => {
    const t = setup()
    t.vault.set('builtin', SECRET)
    t.setSettings({ keepSignedIn: false })
    t.vault.applySettings()
    expect(t.store.snapshot()[VAULT_KEY]).toBeUndefined()
    expect(t.vault.get('builtin')).toBe(SECRET)
    t.vault.set('src-2', 'another-credential')
    expect(t.store.snapshot()[VAULT_KEY]).toBeUndefined()
    expect(t.vault.storage('src-2').mode).toBe('memory')
    expect(t.restart().get('builtin')).toBeUndefined()

    t.setSettings({ keepSignedIn: true })
    t.vault.applySettings()
    expect(t.restart().get('builtin')).toBe(SECRET)
  })

  it('ignores a stored copy when "keep me signed in" is off at start', () => {
    const t = setup()
    t.vault.set('builtin', SECRET)
    t.setSettings({ keepSignedIn: false })
    expect(t.restart().get('builtin')).toBeUndefined()
    expect(t.store.snapshot()[VAULT_KEY]).toBeUndefined()
  })

  it('forgets the credential everywhere on clear', () => {
    const t = setup()
    t.vault.set('builtin', SECRET)
    t.vault.set('src-2', 'keep-this-one-around')
    t.vault.clear('builtin')
    expect(t.vault.get('builtin')).toBeUndefined()
    expect(t.vault.has('builtin')).toBe(false)
    expect(Object.keys(t.store.snapshot()[VAULT_KEY] as object)).toEqual(['src-2'])
    expect(t.restart().get('builtin')).toBeUndefined()
  })

  it('drops a stored credential that no longer decrypts (the keyring changed)', () => {
    const t = setup()
    t.vault.set('builtin', SECRET)
    const other = createVault({
      store: t.store,
      cipher: createTestCipher(),
      settings: () => DEFAULT_SETTINGS,
      log: silentLogger('v'),
    })
    expect(other.get('builtin')).toBeUndefined()
    expect(t.store.snapshot()[VAULT_KEY]).toBeUndefined()
  })

  it('never falls back to plain text when encryption throws', () => {
    const broken: SecretCipher = {
      isEncryptionAvailable: () => true,
      backend: () => undefined,
      encrypt: () => {
        throw new Error('keyring locked')
      },
      decrypt: () => '',
    }
    const t = setup({ cipher: broken })
    t.vault.set('builtin', SECRET)
    expect(t.vault.get('builtin')).toBe(SECRET)
    expect(JSON.stringify(t.store.snapshot())).not.toContain(SECRET)
  })

  it('ignores garbage in the store', () => {
    const store = createMemoryStore({ [VAULT_KEY]: { builtin: { v: 9, data: 1 }, x: 'y' } })
    const t = setup({ store })
    expect(t.vault.get('builtin')).toBeUndefined()
    expect(t.vault.get('x')).toBeUndefined()
  })
})
