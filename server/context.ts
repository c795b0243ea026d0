import type { FastifyRequest } from 'fastify'
import type { DB } from './db/sqlite'
import type { Catalog } from './catalog'
import type { Credentials, QrKeys, UserRow } from './auth'
import type { AudioStore } from './audio/store'
import type { MediaSigner } from './signing'
import type { AttemptLimiter, OwnerProof } from './owner'

/** Everything the route modules share. */
export interface Ctx {
  db: DB
  catalog: Catalog
  credentials: Credentials
  qr: QrKeys
  audio: AudioStore
  signer: MediaSigner
  owner: { id: number; name: string }
  /** The owner's passphrase and remembered phones, checked before a phone sign-in is confirmed. */
  ownerProof: OwnerProof
  /** Failed passphrase attempts per client address. */
  attempts: AttemptLimiter
  serverName: string
  /** Absolute base for URLs handed to clients (no trailing slash). */
  baseUrl(req: FastifyRequest): string
  /** The signed-in user behind the request's Token header, or null. */
  viewer(req: FastifyRequest): UserRow | null
  log(message: string): void
  /** Always written (stderr), whatever `--log` says: failures an operator must see. */
  warn(message: string): void
  /** Whether a Host header names this server (see hosts.ts). */
  allowedHost(hostHeader: unknown): boolean
  /** When the server started (ms since epoch), for /health. */
  startedAt: number
  /** The desktop app's secret for this process (`/cadence/instance`); absent when started otherwise. */
  instanceNonce?: string
  /** Anonymous requests get the spec's "log in first" for everything but the sign-in and covers. */
  requireLogin: boolean
}
