import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getMeta } from '../../server/db/meta'
import { openDatabase } from '../../server/db/open'
import type { DB } from '../../server/db/sqlite'
import { createUser } from '../../server/db/users'
import {
  Credentials,
  MAX_CREDENTIALS_PER_USER,
  MAX_PENDING_KEYS_PER_CLIENT,
  QR_KEY_TTL_MS,
  QrKeys,
} from '../../server/auth'
import { AttemptLimiter, MAX_REMEMBERED_DEVICES, OwnerProof, generatePassphrase } from '../../server/owner'

let dir: string
let db: DB
let userId: number

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cadence-auth-'))
  db = openDatabase(dir)
  userId = createUser(db, 'Mei', { owner: true })
})

afterEach(() => {
  vi.useRealTimers()
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('Credentials', () => {
  it('verifies an issued credential raw or as "Bearer …", and stores only its hash', () => {
    const credentials = new Credentials(db, 3600)
    const credential = credentials.issue(userId)
    expect(credentials.verify(credential)?.id).toBe(userId)
    expect(credentials.verify(`Bearer ${credential}`)?.name).toBe('Mei')
    expect(credentials.verify(`bearer   ${credential}  `)?.id).toBe(userId)
    const stored = db.prepare('SELECT hash FROM tokens').all() as Array<{ hash: string }>
    expect(stored).toHaveLength(1)
    expect(stored[0].hash).not.toContain(credential)
  })

  it('refuses unknown, malformed, oversized and non-string values', () => {
    const credentials = new Credentials(db, 3600)
    const credential = credentials.issue(userId)
    for (const bad of [
      '',
      'Bearer',
      `${credential}x`,
      credential.slice(1),
      `${credential}'--`,
      'A'.repeat(600),
      undefined,
      42,
      [credential],
    ]) {
      expect(credentials.verify(bad)).toBeNull()
    }
  })

  it('stops answering once the credential has lived its lifetime', () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(1_000_000)
    const credentials = new Credentials(db, 60)
    const credential = credentials.issue(userId)
    vi.setSystemTime(1_000_000 + 59_999)
    expect(credentials.verify(credential)).not.toBeNull()
    vi.setSystemTime(1_000_000 + 60_000)
    expect(credentials.verify(credential)).toBeNull()
  })

  it(`keeps at most ${MAX_CREDENTIALS_PER_USER} live credentials per user, revoking the oldest`, () => {
    const credentials = new Credentials(db, 3600)
    const other = createUser(db, 'Ren')
    const othersCredential = credentials.issue(other)
    const issued = Array.from({ length: MAX_CREDENTIALS_PER_USER + 1 }, () => credentials.issue(userId))
    expect(credentials.verify(issued[0])).toBeNull()
    for (const credential of issued.slice(1)) expect(credentials.verify(credential)?.id).toBe(userId)
    // Another user's credential is not the oldest of this user's.
    expect(credentials.verify(othersCredential)?.id).toBe(other)
  })
})

describe('QrKeys', () => {
  it('walks a key through waiting → scanned → confirmed, handing the credential over exactly once', () => {
    const keys = new QrKeys()
    const unikey = keys.create('10.0.0.2')
    expect(keys.get(unikey, '10.0.0.2')).toEqual({ status: 0, cookie: '' })
    expect(keys.scan(unikey)).toBe(1)
    expect(keys.get(unikey, '10.0.0.2')).toEqual({ status: 1, cookie: '' })
    expect(keys.confirm(unikey, () => 'the-credential')).toBe(2)
    expect(keys.get(unikey, '10.0.0.2')).toEqual({ status: 2, cookie: 'the-credential' })
    expect(keys.get(unikey, '10.0.0.2')).toEqual({ status: -1, cookie: '' })
  })

  it('issues no credential for a denied key, nor a second one for a key confirmed twice', () => {
    const keys = new QrKeys()
    const denied = keys.create()
    expect(keys.deny(denied)).toBe(-1)
    const issue = vi.fn(() => 'c')
    expect(keys.confirm(denied, issue)).toBe(-1)
    const confirmed = keys.create()
    keys.confirm(confirmed, issue)
    keys.confirm(confirmed, issue)
    expect(issue).toHaveBeenCalledTimes(1)
  })

  it('expires keys after five minutes', () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(5_000_000)
    const keys = new QrKeys()
    const unikey = keys.create()
    vi.setSystemTime(5_000_000 + QR_KEY_TTL_MS - 1)
    expect(keys.exists(unikey)).toBe(true)
    vi.setSystemTime(5_000_000 + QR_KEY_TTL_MS)
    expect(keys.exists(unikey)).toBe(false)
    expect(keys.confirm(unikey, () => 'c')).toBe(-1)
  })

  it('caps pending keys per client: a flood drops only the flooder’s own oldest keys', () => {
    const keys = new QrKeys()
    const owners = keys.create('192.168.1.10')
    const flood = Array.from({ length: MAX_PENDING_KEYS_PER_CLIENT * 3 }, () => keys.create('192.168.1.66'))
    expect(keys.exists(owners)).toBe(true)
    const alive = flood.filter((k) => keys.exists(k))
    expect(alive).toEqual(flood.slice(-MAX_PENDING_KEYS_PER_CLIENT))
  })

  it('gives each key a phone code that finds the key but is no key itself, and forgets it with the key', () => {
    const keys = new QrKeys()
    const unikey = keys.create()
    const code = keys.phoneCode(unikey) as string
    expect(code).toMatch(/^[A-Za-z0-9_-]{20,}$/)
    expect(code).not.toBe(unikey)
    expect(keys.keyForPhoneCode(code)).toBe(unikey)
    expect(keys.keyForPhoneCode(unikey)).toBeUndefined()
    expect(keys.get(code)).toEqual({ status: -1, cookie: '' })
    keys.confirm(unikey, () => 'c')
    expect(keys.get(unikey)).toEqual({ status: 2, cookie: 'c' })
    expect(keys.keyForPhoneCode(code)).toBeUndefined()
    expect(keys.phoneCode(unikey)).toBeUndefined()
  })

  it('accepts a phone-page POST only with the form token of the page served for that key', () => {
    const keys = new QrKeys()
    const unikey = keys.create()
    const other = keys.create()
    expect(keys.formTokenMatches(unikey, '')).toBe(false)
    const token = keys.newFormToken(unikey) as string
    expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/)
    expect(keys.formTokenMatches(unikey, token)).toBe(true)
    expect(keys.formTokenMatches(other, token)).toBe(false)
    expect(keys.formTokenMatches(unikey, `${token}x`)).toBe(false)
    expect(keys.formTokenMatches(unikey, undefined)).toBe(false)
    // A newer page for the same key replaces the token.
    const newer = keys.newFormToken(unikey) as string
    expect(keys.formTokenMatches(unikey, token)).toBe(false)
    expect(keys.formTokenMatches(unikey, newer)).toBe(true)
    // No page (and no token) for a key that is no longer pending.
    keys.confirm(unikey, () => 'c')
    expect(keys.newFormToken(unikey)).toBeUndefined()
    expect(keys.newFormToken('no-such-key')).toBeUndefined()
  })
})

describe('OwnerProof', () => {
  it('checks the given passphrase and stores only a slow hash of it', async () => {
    const { proof, generated } = OwnerProof.open(db, 'correct horse battery')
    expect(generated).toBeUndefined()
    expect(await proof.checkPassphrase('correct horse battery')).toBe(true)
    expect(await proof.checkPassphrase('  correct horse battery ')).toBe(true)
    expect(await proof.checkPassphrase('correct horse batterY')).toBe(false)
    expect(await proof.checkPassphrase('')).toBe(false)
    expect(await proof.checkPassphrase(undefined)).toBe(false)
    expect(await proof.checkPassphrase('x'.repeat(10_000))).toBe(false)
    const stored = JSON.stringify(db.prepare('SELECT value FROM meta').all())
    expect(stored).not.toContain('correct horse')
    expect(getMeta(db, 'owner_passphrase')).toMatch(/^scrypt\$/)
  })

  it('makes a passphrase on first start, tells it once, and keeps it across restarts', async () => {
    const first = OwnerProof.open(db, undefined)
    expect(first.generated).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/)
    // The hash is made off the start's path; it is stored once ready.
    expect(getMeta(db, 'owner_passphrase')).toBeUndefined()
    await first.proof.ready()
    const again = OwnerProof.open(db, undefined)
    expect(again.generated).toBeUndefined()
    expect(await again.proof.checkPassphrase(first.generated)).toBe(true)
    // A passphrase given later replaces it.
    const replaced = OwnerProof.open(db, 'a new passphrase')
    expect(await replaced.proof.checkPassphrase(first.generated)).toBe(false)
    expect(await replaced.proof.checkPassphrase('a new passphrase')).toBe(true)
  })

  it('on a changed passphrase forgets the remembered phones and says so; the same one changes nothing', async () => {
    const first = OwnerProof.open(db, 'the first passphrase')
    await first.proof.ready()
    const phone = first.proof.rememberDevice()
    const changed = vi.fn()
    const same = OwnerProof.open(db, 'the first passphrase', changed)
    expect(same.proof.settled).toBe(false)
    await same.proof.ready()
    expect(same.proof.settled).toBe(true)
    expect(changed).not.toHaveBeenCalled()
    expect(same.proof.isRememberedDevice(phone)).toBe(true)
    const next = OwnerProof.open(db, 'the second passphrase', changed)
    await next.proof.ready()
    expect(changed).toHaveBeenCalledTimes(1)
    expect(next.proof.isRememberedDevice(phone)).toBe(false)
    expect(await next.proof.checkPassphrase('the first passphrase')).toBe(false)
  })

  it('refuses a passphrase shorter than eight characters', async () => {
    expect(() => OwnerProof.open(db, 'short')).toThrow(/at least 8/)
  })

  it('remembers a phone by a token of which only the hash is kept, up to a cap', async () => {
    const { proof } = OwnerProof.open(db, 'remember me please')
    vi.useFakeTimers({ toFake: ['Date'] })
    let now = 10_000
    vi.setSystemTime(now)
    const first = proof.rememberDevice()
    expect(proof.isRememberedDevice(first)).toBe(true)
    expect(proof.isRememberedDevice(undefined)).toBe(false)
    expect(proof.isRememberedDevice('not a token')).toBe(false)
    expect(proof.isRememberedDevice(generatePassphrase().replace(/-/g, '').repeat(2))).toBe(false)
    expect(JSON.stringify(db.prepare('SELECT * FROM owner_devices').all())).not.toContain(first)
    const later = Array.from({ length: MAX_REMEMBERED_DEVICES }, () => {
      vi.setSystemTime((now += 1000))
      return proof.rememberDevice()
    })
    expect(proof.isRememberedDevice(first)).toBe(false)
    for (const token of later) expect(proof.isRememberedDevice(token)).toBe(true)
  })
})

describe('AttemptLimiter', () => {
  it('refuses a client after `limit` failures in the window, until the first one leaves it', () => {
    const limiter = new AttemptLimiter(3, 60_000)
    for (const t of [0, 10_000, 20_000]) {
      expect(limiter.retryAfterMs('10.0.0.9', t)).toBe(0)
      limiter.fail('10.0.0.9', t)
    }
    expect(limiter.retryAfterMs('10.0.0.9', 30_000)).toBe(30_000)
    expect(limiter.retryAfterMs('10.0.0.8', 30_000)).toBe(0)
    expect(limiter.retryAfterMs('10.0.0.9', 60_000)).toBe(0)
  })

  it('counts attempts still being checked: a burst is admitted only up to the limit', () => {
    const limiter = new AttemptLimiter(5, 60_000)
    const admitted = Array.from({ length: 60 }, () => limiter.admit('10.0.0.7', 0)).filter((w) => w === 0)
    expect(admitted).toHaveLength(5)
    expect(limiter.admit('10.0.0.6', 0)).toBe(0)
    // Four of them fail, one was right: one more may try; after a fifth failure none may.
    for (let i = 0; i < 4; i++) limiter.fail('10.0.0.7', 1)
    limiter.succeed('10.0.0.7')
    expect(limiter.admit('10.0.0.7', 2)).toBe(0)
    limiter.fail('10.0.0.7', 2)
    expect(limiter.admit('10.0.0.7', 3)).toBe(60_000 - 2)
  })

  it('keeps at most maxClients addresses, forgetting the least recent', () => {
    const limiter = new AttemptLimiter(1, 60_000, 2)
    limiter.fail('a', 0)
    limiter.fail('b', 1)
    limiter.fail('c', 2)
    expect(limiter.retryAfterMs('a', 3)).toBe(0)
    expect(limiter.retryAfterMs('b', 3)).toBeGreaterThan(0)
    expect(limiter.retryAfterMs('c', 3)).toBeGreaterThan(0)
  })
})
