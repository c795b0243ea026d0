import { afterEach, describe, expect, it, vi } from 'vitest'

const safe = { available: true, backend: 'gnome_libsecret' }
vi.mock('electron', () => ({
  safeStorage: {
    isEncryptionAvailable: () => safe.available,
    getSelectedStorageBackend: () => safe.backend,
    encryptString: (plain: string) => Buffer.from(`enc:${plain}`),
    decryptString: (data: Buffer) => data.toString().replace(/^enc:/, ''),
  },
}))

const { createSafeStorageCipher } = await import('@main/glue/cipher')
const platform = Object.getOwnPropertyDescriptor(process, 'platform')!

describe('createSafeStorageCipher', () => {
  afterEach(() => {
    Object.defineProperty(process, 'platform', platform)
    safe.available = true
    safe.backend = 'gnome_libsecret'
  })
  const onLinux = () => Object.defineProperty(process, 'platform', { value: 'linux' })

  it('round-trips through safeStorage as base64 text', () => {
    const cipher = createSafeStorageCipher()
    const text = cipher.encrypt('secret')
    expect(text).toBe(Buffer.from('enc:secret').toString('base64'))
    expect(cipher.decrypt(text)).toBe('secret')
  })

  it('reports Linux basic_text as no real encryption', () => {
    onLinux()
    safe.backend = 'basic_text'
    const cipher = createSafeStorageCipher()
    expect(cipher.isEncryptionAvailable()).toBe(false)
    expect(cipher.backend()).toBe('basic_text')
    safe.backend = 'kwallet5'
    expect(cipher.isEncryptionAvailable()).toBe(true)
  })

  it('reports unavailable encryption', () => {
    safe.available = false
    expect(createSafeStorageCipher().isEncryptionAvailable()).toBe(false)
  })
})
