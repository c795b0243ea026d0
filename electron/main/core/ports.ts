/**
 * What the core needs from the outside world, injected by the glue (Electron) or by tests.
 * Nothing here imports `electron`.
 */

/** A small persistent key-value store (electron-store in the app, a Map in tests). */
export interface KeyValueStore {
  get<T = unknown>(key: string): T | undefined
  set(key: string, value: unknown): void
  delete(key: string): void
}

/** Encrypts secrets at rest (safeStorage in the app). */
export interface SecretCipher {
  /** Whether encryption is real. False on Linux without a keyring (`basic_text`) or when unavailable. */
  isEncryptionAvailable(): boolean
  /** Backend name when the platform tells it (Linux: `basic_text`, `gnome_libsecret`, `kwallet`…). */
  backend(): string | undefined
  encrypt(plain: string): string
  decrypt(cipherText: string): string
}

export function createMemoryStore(initial: Record<string, unknown> = {}): KeyValueStore & {
  snapshot(): Record<string, unknown>
} {
  const data = new Map<string, unknown>(Object.entries(structuredClone(initial)))
  return {
    get: <T>(key: string) => structuredClone(data.get(key)) as T | undefined,
    set: (key, value) => void data.set(key, structuredClone(value)),
    delete: (key) => void data.delete(key),
    snapshot: () => structuredClone(Object.fromEntries(data)),
  }
}

/** Timers, injected so tests drive them (`vi.useFakeTimers()` works with the defaults, read at call time). */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}
export const realTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/** The windows the core may open or close (the login window; the main window is the glue's business). */
export interface WindowsPort {
  openLogin(): void
  closeLogin(): void
}
export const noWindows: WindowsPort = { openLogin() {}, closeLogin() {} }

/** A question main asks the person itself (a native dialog), never one the renderer draws. */
export interface ConfirmRequest {
  title: string
  message: string
  detail: string
  /** The button that says yes; the other one cancels and is the default. */
  confirmLabel: string
}
/** Resolves true only when the person chose `confirmLabel`. */
export type ConfirmPort = (request: ConfirmRequest) => Promise<boolean>
/** Where main cannot ask: every question is answered no. */
export const refuseAll: ConfirmPort = async () => false

/**
 * `given`, or else the global `fetch` looked up at each call, not once when a module is made: a test's
 * spy on the global then sees every request, as with the other ports.
 */
export const lateFetch =
  (given?: typeof fetch): typeof fetch =>
  (input, init) =>
    (given ?? globalThis.fetch)(input, init)
