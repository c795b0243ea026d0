import type { CredentialStorageInfo } from '@shared/ipc/contract'
import type { Settings } from '@shared/settings'
import type { Logger } from '../log'
import type { KeyValueStore, SecretCipher } from '../ports'

/**
 * The credential vault: one credential per data source. It lives in memory and, when the user keeps
 * signed in, encrypted in the store. Plain text never reaches the store, the log or IPC.
 *
 * - real encryption available (safeStorage with a keyring) → persisted encrypted;
 * - Linux without a keyring (`basic_text`) or no encryption at all → memory only, unless the user
 *   consented in Settings (`allowInsecureStorage`), then persisted with the weak protection there is;
 * - `keepSignedIn` off → memory only, and any stored copy is wiped.
 */

export const VAULT_KEY = 'credentials'

interface StoredCredential {
  v: 1
  mode: 'encrypted' | 'insecure'
  /** Cipher text (base64) from the SecretCipher. */
  data: string
}
type StoredMap = Record<string, StoredCredential>

export interface Vault {
  get(sourceId: string): string | undefined
  set(sourceId: string, credential: string): void
  /** Forgets the credential everywhere (memory and store). */
  clear(sourceId: string): void
  has(sourceId: string): boolean
  /** Where a credential is (or would be) kept now. */
  storage(sourceId?: string): CredentialStorageInfo
  /** Re-applies the storage rules after a settings change (wipes or persists stored copies). */
  applySettings(): void
}

export function createVault(deps: {
  store: KeyValueStore
  cipher: SecretCipher
  settings: () => Settings
  log: Logger
}): Vault {
  const { store, cipher, log } = deps
  const memory = new Map<string, string>()

  const readStored = (): StoredMap => {
    const raw = store.get<unknown>(VAULT_KEY)
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {}
    const out: StoredMap = {}
    for (const [id, value] of Object.entries(raw as Record<string, unknown>)) {
      const v = value as Partial<StoredCredential> | null
      if (v && v.v === 1 && (v.mode === 'encrypted' || v.mode === 'insecure') && typeof v.data === 'string') {
        out[id] = { v: 1, mode: v.mode, data: v.data }
      }
    }
    return out
  }
  const writeStored = (map: StoredMap) => {
    if (Object.keys(map).length === 0) store.delete(VAULT_KEY)
    else store.set(VAULT_KEY, map)
  }

  const encryptionAvailable = () => {
    try {
      return cipher.isEncryptionAvailable()
    } catch {
      return false
    }
  }

  /** How a credential may be persisted right now, or 'memory' when it may not. */
  const mode = (): CredentialStorageInfo['mode'] => {
    const settings = deps.settings()
    if (!settings.keepSignedIn) return 'memory'
    if (encryptionAvailable()) return 'encrypted'
    return settings.allowInsecureStorage ? 'insecure' : 'memory'
  }

  const persist = (sourceId: string, credential: string) => {
    const map = readStored()
    const how = mode()
    if (how === 'memory') {
      if (map[sourceId]) {
        delete map[sourceId]
        writeStored(map)
      }
      return
    }
    let data: string
    try {
      data = cipher.encrypt(credential)
    } catch (error) {
      // Never fall back to plain text: keep it in memory only.
      log.warn('could not encrypt the credential; keeping it in memory only', {
        error: error instanceof Error ? error.message : String(error),
      })
      delete map[sourceId]
      writeStored(map)
      return
    }
    map[sourceId] = { v: 1, mode: how, data }
    writeStored(map)
  }

  const vault: Vault = {
    get(sourceId) {
      const held = memory.get(sourceId)
      if (held !== undefined) return held
      const stored = readStored()[sourceId]
      if (!stored) return undefined
      if (!deps.settings().keepSignedIn) {
        vault.clear(sourceId)
        return undefined
      }
      try {
        const plain = cipher.decrypt(stored.data)
        if (!plain) throw new Error('empty')
        memory.set(sourceId, plain)
        return plain
      } catch {
        // The keyring changed or the file was edited: the login is gone, not the app.
        log.warn('a stored credential could not be decrypted; it was removed', { sourceId })
        const map = readStored()
        delete map[sourceId]
        writeStored(map)
        return undefined
      }
    },
    set(sourceId, credential) {
      memory.set(sourceId, credential)
      persist(sourceId, credential)
    },
    clear(sourceId) {
      memory.delete(sourceId)
      const map = readStored()
      if (map[sourceId]) {
        delete map[sourceId]
        writeStored(map)
      }
    },
    has: (sourceId) => vault.get(sourceId) !== undefined,
    storage(sourceId) {
      const available = encryptionAvailable()
      let backend: string | undefined
      try {
        backend = cipher.backend()
      } catch {
        backend = undefined
      }
      const stored = sourceId ? readStored()[sourceId] : undefined
      const held = sourceId ? memory.has(sourceId) : false
      const current: CredentialStorageInfo['mode'] = stored ? stored.mode : held ? 'memory' : mode()
      return { mode: current, encryptionUnavailable: !available, ...(backend ? { backend } : {}) }
    },
    applySettings() {
      const settings = deps.settings()
      if (!settings.keepSignedIn) {
        // Load stored copies into memory first so this session stays signed in, then wipe them.
        for (const id of Object.keys(readStored())) {
          try {
            if (!memory.has(id)) memory.set(id, cipher.decrypt(readStored()[id].data))
          } catch {
            /* unreadable: simply dropped */
          }
        }
        writeStored({})
        return
      }
      const map = readStored()
      for (const [id, entry] of Object.entries(map)) {
        // Consent withdrawn: weakly protected copies go.
        if (entry.mode === 'insecure' && mode() !== 'insecure') {
          try {
            if (!memory.has(id)) memory.set(id, cipher.decrypt(entry.data))
          } catch {
            /* dropped */
          }
          delete map[id]
        }
      }
      writeStored(map)
      for (const [id, credential] of memory) if (!readStored()[id]) persist(id, credential)
    },
  }
  return vault
}
