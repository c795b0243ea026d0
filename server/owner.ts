import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto'
import { getMeta, setMeta } from './db/meta'
import type { DB } from './db/sqlite'

/**
 * Proof of being the owner, asked for on the phone page before a sign-in is confirmed: the owner passphrase
 * (kept only as a slow scrypt hash) or a "remembered phone" cookie that an earlier sign-in with the
 * passphrase set (kept only as a SHA-256 hash). Failed attempts are limited per client address.
 */

const PASSPHRASE_META = 'owner_passphrase'
/** scrypt cost: about 50–100 ms per check on a small machine; runs off the event loop (libuv pool). */
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const
const KEY_LENGTH = 32
/** Remembered phones per owner; the oldest is forgotten first. */
export const MAX_REMEMBERED_DEVICES = 20
export const DEVICE_COOKIE = 'cadence_owner'
export const DEVICE_COOKIE_MAX_AGE_S = 400 * 86400
export const MIN_PASSPHRASE_LENGTH = 8
export const MAX_PASSPHRASE_LENGTH = 200

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex')

function scryptAsync(passphrase: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(passphrase.normalize('NFC'), salt, KEY_LENGTH, SCRYPT, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  )
}

/** A passphrase a person can read out and type on a phone: four groups of four, about 80 bits. */
export function generatePassphrase(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789'
  const group = () => Array.from({ length: 4 }, () => alphabet[randomInt(alphabet.length)]).join('')
  return [group(), group(), group(), group()].join('-')
}

export class OwnerProof {
  /** Whether the passphrase's hash is made and any change it brings applied (see `ready()`). */
  settled = false

  private constructor(
    private readonly db: DB,
    /** The passphrase's hash: still being made for a moment after a start with a new passphrase. */
    private readonly hash: Promise<{ salt: Buffer; key: Buffer }>,
  ) {
    void hash.then(
      () => (this.settled = true),
      () => (this.settled = true),
    )
  }

  /**
   * Sets up the owner passphrase: the given one replaces the stored hash; with none given the stored one is
   * kept, and when there is none yet a new passphrase is made and returned (once) so the caller can show it.
   *
   * A given passphrase that differs from the stored one is a change: the remembered phones are forgotten
   * and `changed` runs (the caller revokes every credential), so a leaked passphrase, and whatever was
   * signed in with it, stops working once the owner sets a new one.
   *
   * The hashes (scrypt, about 100 ms each) are made off the start's path: the data source answers at once;
   * a passphrase check that comes first waits for them, and so must anything that trusts a credential or a
   * remembered phone while `settled` is false. `ready()` resolves once all is stored.
   */
  static open(
    db: DB,
    passphrase: string | undefined,
    changed: () => void = () => undefined,
  ): { proof: OwnerProof; generated?: string } {
    let generated: string | undefined
    let wanted = passphrase
    if (wanted !== undefined) checkPassphrase(wanted)
    const stored = parseStored(getMeta(db, PASSPHRASE_META))
    if (wanted === undefined && stored === undefined) wanted = generated = generatePassphrase()
    if (wanted !== undefined) {
      const given = wanted
      const hash = (async () => {
        if (stored && timingSafeEqual(await scryptAsync(given, stored.salt), stored.key)) return stored
        const salt = randomBytes(16)
        const key = await scryptAsync(given, salt)
        setMeta(db, PASSPHRASE_META, `scrypt$${salt.toString('base64')}$${key.toString('base64')}`)
        if (stored) {
          db.prepare('DELETE FROM owner_devices').run()
          changed()
        }
        return { salt, key }
      })()
      // A start that fails before anyone checks a passphrase must not leave an unhandled rejection.
      hash.catch(() => undefined)
      return { proof: new OwnerProof(db, hash), generated }
    }
    return { proof: new OwnerProof(db, Promise.resolve(stored!)) }
  }

  /** Forgets every remembered phone: each must give the passphrase again. */
  forgetDevices(): void {
    this.db.prepare('DELETE FROM owner_devices').run()
  }

  /** Resolves once the passphrase's hash is made and stored (before the database may close). */
  async ready(): Promise<void> {
    await this.hash.catch(() => undefined)
  }

  async checkPassphrase(candidate: unknown): Promise<boolean> {
    if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > MAX_PASSPHRASE_LENGTH)
      return false
    const { salt, key: expected } = await this.hash
    const key = await scryptAsync(candidate.trim(), salt)
    return timingSafeEqual(key, expected)
  }

  /** A new remembered-phone token (the cookie value); only its hash is stored. */
  rememberDevice(): string {
    const token = randomBytes(32).toString('base64url')
    const now = Date.now()
    this.db
      .prepare('INSERT INTO owner_devices (hash, created_at, last_used_at) VALUES (?, ?, ?)')
      .run(sha256(token), now, now)
    this.db
      .prepare(
        `DELETE FROM owner_devices WHERE hash NOT IN
           (SELECT hash FROM owner_devices ORDER BY last_used_at DESC, created_at DESC LIMIT ?)`,
      )
      .run(MAX_REMEMBERED_DEVICES)
    return token
  }

  isRememberedDevice(token: string | undefined): boolean {
    if (!token || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) return false
    const hash = sha256(token)
    const row = this.db.prepare('SELECT 1 AS x FROM owner_devices WHERE hash = ?').get(hash)
    if (!row) return false
    this.db.prepare('UPDATE owner_devices SET last_used_at = ? WHERE hash = ?').run(Date.now(), hash)
    return true
  }
}

/** The stored `scrypt$salt$key`, or undefined when there is none (or it is not one this code wrote). */
function parseStored(value: string | undefined): { salt: Buffer; key: Buffer } | undefined {
  const [kind, salt, key] = (value ?? '').split('$')
  if (kind !== 'scrypt' || !salt || !key) return undefined
  const parsed = { salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') }
  return parsed.key.length === KEY_LENGTH ? parsed : undefined
}

export function checkPassphrase(passphrase: string): void {
  if (passphrase.trim().length < MIN_PASSPHRASE_LENGTH) {
    throw new Error(`The owner passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters long.`)
  }
  if (passphrase.length > MAX_PASSPHRASE_LENGTH) {
    throw new Error(`The owner passphrase must be at most ${MAX_PASSPHRASE_LENGTH} characters long.`)
  }
}

/**
 * Failed passphrase attempts per client address: `limit` per `windowMs`, then refused until it passes. An
 * attempt is admitted before its passphrase is hashed and counts against the limit while it is checked,
 * so requests sent at once cannot all get past the limit before the first one has failed.
 */
export class AttemptLimiter {
  private readonly failures = new Map<string, number[]>()
  /** Attempts admitted and still being checked, per client. */
  private readonly checking = new Map<string, number>()
  constructor(
    private readonly limit = 5,
    private readonly windowMs = 10 * 60_000,
    private readonly maxClients = 10_000,
  ) {}

  /** Milliseconds until `client` may try again, or 0. */
  retryAfterMs(client: string, now = Date.now()): number {
    const recent = this.recent(client, now)
    if (recent.length >= this.limit) return recent[0] + this.windowMs - now
    // Attempts still being checked may all fail: wait for them (a few seconds at most).
    if (recent.length + (this.checking.get(client) ?? 0) >= this.limit) return CHECKING_RETRY_MS
    return 0
  }

  /**
   * Admits one attempt, before anything is hashed: 0 when admitted (it counts against the limit until
   * `fail` or `succeed` settles it), else the milliseconds to wait.
   */
  admit(client: string, now = Date.now()): number {
    const wait = this.retryAfterMs(client, now)
    if (wait === 0) this.checking.set(client, (this.checking.get(client) ?? 0) + 1)
    return wait
  }

  /** An attempt failed (settling an admitted one, if any). */
  fail(client: string, now = Date.now()): void {
    this.settle(client)
    const recent = this.recent(client, now)
    recent.push(now)
    this.failures.delete(client)
    this.failures.set(client, recent)
    while (this.failures.size > this.maxClients) {
      this.failures.delete(this.failures.keys().next().value as string)
    }
  }

  /** An admitted attempt gave the right passphrase. */
  succeed(client: string): void {
    this.settle(client)
  }

  private settle(client: string): void {
    const n = this.checking.get(client) ?? 0
    if (n <= 1) this.checking.delete(client)
    else this.checking.set(client, n - 1)
  }

  private recent(client: string, now: number): number[] {
    const list = (this.failures.get(client) ?? []).filter((t) => t > now - this.windowMs)
    if (list.length === 0) this.failures.delete(client)
    return list
  }
}

/** Retry-After for a client whose admitted attempts are still being checked. */
const CHECKING_RETRY_MS = 5_000
