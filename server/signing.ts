import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Signed media URLs: HMAC-SHA256 over song id, bitrate and expiry with the data dir's secret. */
export class MediaSigner {
  constructor(
    private readonly secret: Buffer,
    private readonly ttlSeconds: number,
  ) {}

  private sign(songId: number, bitrate: number, exp: number, anonymous: boolean): string {
    const text = `media:${songId}:${bitrate}:${exp}${anonymous ? ':anon' : ''}`
    return createHmac('sha256', this.secret).update(text).digest('base64url')
  }

  /**
   * A URL handed to a request without a login says so (`anon=1`, signed too): the media route then makes
   * audio for it only within the anonymous bound.
   */
  path(songId: number, bitrate: number, now = Date.now(), { anonymous = false } = {}): string {
    // Rounded up: a URL lives at least its TTL (rounding down cut up to a second off it).
    const exp = Math.ceil(now / 1000) + this.ttlSeconds
    const anon = anonymous ? '&anon=1' : ''
    return `/media/${songId}/${bitrate}?exp=${exp}${anon}&sig=${this.sign(songId, bitrate, exp, anonymous)}`
  }

  /**
   * 'ok', 'expired' (valid signature, past expiry) or 'invalid'. Only the exact texts this signer writes
   * count: the base64url decoder skips characters outside its alphabet ('=', '.', '~') and ignores the
   * unused low bits of the last character, so comparing decoded bytes let one signature be written many
   * ways (each a "new" URL: another play counted). The expiry is compared as written too (no leading 0).
   */
  verify(
    songId: number,
    bitrate: number,
    exp: unknown,
    sig: unknown,
    anon?: unknown,
  ): 'ok' | 'expired' | 'invalid' {
    if (typeof exp !== 'string' || typeof sig !== 'string' || !/^[1-9]\d{0,11}$/.test(exp)) return 'invalid'
    if (anon !== undefined && anon !== '1') return 'invalid'
    const expected = Buffer.from(this.sign(songId, bitrate, Number(exp), anon === '1'))
    const given = Buffer.from(sig)
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
