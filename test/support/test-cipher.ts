import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import type { SecretCipher } from '@main/core/ports'

/**
 * A real cipher for tests (AES-256-GCM with a per-instance key), standing in for safeStorage, so a test
 * can check that no secret is ever kept in plain text. `available: false` plays Linux without a keyring.
 */
export function createTestCipher(options: { available?: boolean; backend?: string } = {}): SecretCipher {
  const key = randomBytes(32)
  const available = options.available ?? true
  return {
    isEncryptionAvailable: () => available,
    backend: () => options.backend ?? (available ? 'test_keyring' : 'basic_text'),
    encrypt(plain) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
    },
    decrypt(text) {
      const raw = Buffer.from(text, 'base64')
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
      decipher.setAuthTag(raw.subarray(12, 28))
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
    },
  }
}
