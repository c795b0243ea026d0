import { safeStorage } from 'electron'
import type { SecretCipher } from '../core'

/** safeStorage behind the core's SecretCipher port (base64 text, so it fits a JSON store). */
export function createSafeStorageCipher(): SecretCipher {
  return {
    isEncryptionAvailable() {
      if (!safeStorage.isEncryptionAvailable()) return false
      return process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text'
    },
    backend: () => (process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : undefined),
    encrypt: (plain) => safeStorage.encryptString(plain).toString('base64'),
    decrypt: (cipherText) => safeStorage.decryptString(Buffer.from(cipherText, 'base64')),
  }
}
