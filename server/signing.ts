import { createHmac, timingSafeEqual } from 'node:crypto'

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
