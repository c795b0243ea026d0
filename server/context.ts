import type { FastifyRequest } from 'fastify'
import type { DB } from './db/open'
import type { Catalog } from './catalog'
import type { Credentials, QrKeys, UserRow } from './auth'
import type { AudioStore } from './audio/store'
import type { MediaSigner } from './signing'

/** Everything the route modules share. */
export interface Ctx {
  db: DB
  catalog: Catalog
  credentials: Credentials
  qr: QrKeys
  audio: AudioStore
  signer: MediaSigner
  owner: { id: number; name: string }
  serverName: string
  /** Absolute base for URLs handed to clients (no trailing slash). */
  baseUrl(req: FastifyRequest): string
  /** The signed-in user behind the request's Token header, or null. */
  viewer(req: FastifyRequest): UserRow | null
  log(message: string): void
}
