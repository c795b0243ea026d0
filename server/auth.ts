import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { DB } from './db/sqlite'

export const QR_KEY_TTL_MS = 5 * 60 * 1000
/** Pending keys in all; past it, new keys are refused (never someone else's evicted). */
const MAX_PENDING_KEYS = 10_000
/** Pending keys per client address; a client's oldest is dropped for its new one. */
export const MAX_PENDING_KEYS_PER_CLIENT = 10
/** Live credentials per user; the oldest is revoked when a new one is issued past it. */
export const MAX_CREDENTIALS_PER_USER = 20
/** Longest Token header value considered at all; longer ones are rejected without hashing. */
export const MAX_TOKEN_LENGTH = 512

export interface UserRow {
  id: number
  name: string
  description: string | null
  is_owner: number
}

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex')

/** The stored hash of the credential in a `Token` header value, or undefined when it cannot be one. */
function credentialHash(header: unknown): string | undefined {
  if (typeof header !== 'string' || header.length === 0 || header.length > MAX_TOKEN_LENGTH) return undefined
  let value = header.trim()
  const bearer = /^bearer\s+/i.exec(value)
  if (bearer) value = value.slice(bearer[0].length).trim()
  if (!/^[A-Za-z0-9_-]{20,200}$/.test(value)) return undefined
  return sha256(value)
}

/** Credentials: 32 random bytes (base64url); only their SHA-256 is stored. */
export class Credentials {
  private readonly insert
  private readonly lookup
  constructor(
    private readonly db: DB,
    private readonly ttlSeconds: number,
  ) {
    this.insert = db.prepare('INSERT INTO tokens (hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
    this.lookup = db.prepare(
      `SELECT u.id, u.name, u.description, u.is_owner FROM tokens t JOIN users u ON u.id = t.user_id
       WHERE t.hash = ? AND t.expires_at > ?`,
    )
  }

  issue(userId: number): string {
    const credential = randomBytes(32).toString('base64url')
    const now = Date.now()
    this.insert.run(sha256(credential), userId, now, now + this.ttlSeconds * 1000)
    this.db.prepare('DELETE FROM tokens WHERE expires_at <= ?').run(now)
    this.db
      .prepare(
        `DELETE FROM tokens WHERE user_id = ? AND hash NOT IN
           (SELECT hash FROM tokens WHERE user_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?)`,
      )
      .run(userId, userId, MAX_CREDENTIALS_PER_USER)
    return credential
  }

  /** The user behind a `Token` header value (raw credential or `Bearer <credential>`), or null. */
  verify(header: unknown): UserRow | null {
    const hash = credentialHash(header)
    if (hash === undefined) return null
    return (this.lookup.get(hash, Date.now()) as UserRow | undefined) ?? null
  }

  /** Revokes the credential in a `Token` header value (logout); its user, or null when it was not valid. */
  revoke(header: unknown): UserRow | null {
    const user = this.verify(header)
    if (user) this.db.prepare('DELETE FROM tokens WHERE hash = ?').run(credentialHash(header) as string)
    return user
  }

  /** Revokes every credential of one user (signs every device out). */
  revokeUser(userId: number): void {
    this.db.prepare('DELETE FROM tokens WHERE user_id = ?').run(userId)
  }

  expireAll(): void {
    this.db.prepare('DELETE FROM tokens').run()
  }
}

export type QrStatus = -1 | 0 | 1 | 2

interface QrKey {
  status: QrStatus
  expiresAt: number
  credential: string
  /**
   * Who asked for it (client address: behind a trusted proxy, the address it forwards): the per-client cap,
   * and the only address that may create its code or poll it.
   */
  client: string
  /** The phone page's form token: a POST must carry the one its page was served with. */
  formToken: string
  /**
   * What the QR code carries (the phone page's address) instead of the key: it lets a phone confirm, never
   * poll, so whoever sees the code cannot collect the credential meant for the client that asked.
   */
  phoneCode: string
}

/** Too many keys pending: the caller answers 429. */
export class TooManyKeys extends Error {}

/** QR login keys live in memory only: they last five minutes, and a restart simply expires them. */
export class QrKeys {
  private readonly keys = new Map<string, QrKey>()
  /** Phone code → key. */
  private readonly codes = new Map<string, string>()

  create(client = ''): string {
    this.sweep()
    const mine = [...this.keys].filter(([, k]) => k.client === client)
    for (let i = 0; i <= mine.length - MAX_PENDING_KEYS_PER_CLIENT; i++) this.drop(mine[i][0])
    if (this.keys.size >= MAX_PENDING_KEYS) throw new TooManyKeys()
    const unikey = randomBytes(16).toString('base64url')
    const phoneCode = randomBytes(16).toString('base64url')
    this.keys.set(unikey, {
      status: 0,
      expiresAt: Date.now() + QR_KEY_TTL_MS,
      credential: '',
      client,
      formToken: '',
      phoneCode,
    })
    this.codes.set(phoneCode, unikey)
    return unikey
  }

  /**
   * The code the QR image carries for a live key (its phone page's address), or undefined; also undefined
   * when `client` is not the address that asked for the key.
   */
  phoneCode(unikey: string, client = ''): string | undefined {
    const key = this.live(unikey)
    return key && key.client === client ? key.phoneCode : undefined
  }

  /** The key a phone code stands for, while it lives (the phone page's routes take codes, never keys). */
  keyForPhoneCode(code: unknown): string | undefined {
    if (typeof code !== 'string' || code.length > 64) return undefined
    const unikey = this.codes.get(code)
    if (unikey === undefined) return undefined
    if (!this.live(unikey)) {
      this.codes.delete(code)
      return undefined
    }
    return unikey
  }

  /**
   * Current state; unknown or expired keys report -1. The credential is in exactly one answer: the first
   * check after the confirmation hands it over and forgets the key. A key polled from another address than
   * the one that asked for it is reported as unknown (-1) and left as it is for its own client: a key read
   * from a log or over a shoulder collects nothing.
   */
  get(unikey: string, client = ''): { status: QrStatus; cookie: string } {
    const key = this.live(unikey)
    if (!key || key.client !== client) return { status: -1, cookie: '' }
    if (key.status !== 2) return { status: key.status, cookie: '' }
    this.drop(unikey)
    return { status: 2, cookie: key.credential }
  }

  /** A fresh form token for the phone page of a pending key (undefined when the key is not pending). */
  newFormToken(unikey: string): string | undefined {
    const key = this.live(unikey)
    if (!key || (key.status !== 0 && key.status !== 1)) return undefined
    key.formToken = randomBytes(24).toString('base64url')
    return key.formToken
  }

  formTokenMatches(unikey: string, token: unknown): boolean {
    const key = this.live(unikey)
    if (!key || !key.formToken || typeof token !== 'string') return false
    const a = Buffer.from(key.formToken)
    const b = Buffer.from(token)
    return a.length === b.length && timingSafeEqual(a, b)
  }

  exists(unikey: string): boolean {
    return this.live(unikey) !== undefined
  }

  scan(unikey: string): QrStatus {
    const key = this.live(unikey)
    if (!key) return -1
    if (key.status === 0) key.status = 1
    return key.status
  }

  confirm(unikey: string, issue: () => string): QrStatus {
    const key = this.live(unikey)
    if (!key) return -1
    if (key.status === 0 || key.status === 1) {
      key.status = 2
      key.credential = issue()
    }
    return key.status
  }

  deny(unikey: string): QrStatus {
    const key = this.live(unikey)
    if (!key) return -1
    if (key.status === 0 || key.status === 1) key.status = -1
    return key.status
  }

  private live(unikey: string): QrKey | undefined {
    if (typeof unikey !== 'string' || unikey.length > 64) return undefined
    const key = this.keys.get(unikey)
    if (!key) return undefined
    if (key.expiresAt <= Date.now()) {
      this.drop(unikey)
      return undefined
    }
    return key
  }

  private drop(unikey: string): void {
    const key = this.keys.get(unikey)
    if (key) this.codes.delete(key.phoneCode)
    this.keys.delete(unikey)
  }

  private sweep(): void {
    const now = Date.now()
    for (const [k, v] of this.keys) if (v.expiresAt <= now) this.drop(k)
  }

  /** Test hook: forget every key. */
  clear(): void {
    this.keys.clear()
    this.codes.clear()
  }
}
