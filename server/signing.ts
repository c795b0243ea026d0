import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Signed media URLs: HMAC-SHA256 over song id, bitrate and expiry with the data dir's secret. */
export class MediaSigner {
  constructor(
    private readonly secret: Buffer,
    private readonly ttlSeconds: number,
  ) {}

  private mac(songId: number, bitrate: number, exp: number): Buffer {
    return createHmac('sha256', this.secret).update(`media:${songId}:${bitrate}:${exp}`).digest()
  }

  path(songId: number, bitrate: number, now = Date.now()): string {
    // Rounded up: a URL lives at least its TTL (rounding down cut up to a second off it).
    const exp = Math.ceil(now / 1000) + this.ttlSeconds
    const sig = this.mac(songId, bitrate, exp).toString('base64url')
    return `/media/${songId}/${bitrate}?exp=${exp}&sig=${sig}`
  }

  /** 'ok', 'expired' (valid signature, past expiry) or 'invalid'. */
  verify(songId: number, bitrate: number, exp: unknown, sig: unknown): 'ok' | 'expired' | 'invalid' {
    if (typeof exp !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(exp) || sig.length > 100) {
      return 'invalid'
    }
    const given = Buffer.from(sig, 'base64url')
    const expected = this.mac(songId, bitrate, Number(exp))
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid'
    return Number(exp) * 1000 <= Date.now() ? 'expired' : 'ok'
  }
}

/** A per-data-dir secret used to sign media URLs. Created once, kept in the data dir with mode 0600. */
export function loadSecret(dataDir: string): Buffer {
  const file = join(dataDir, 'secret.key')
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url')
    if (key.length >= 32) return key
  }
  const key = randomBytes(32)
  writeFileSync(file, key.toString('base64url') + '\n', { mode: 0o600 })
  return key
}
