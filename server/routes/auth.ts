import type { FastifyInstance } from 'fastify'
import QRCode from 'qrcode'
import { ApiError, ok, loginRequired, notFound } from '../envelope'
import { TooManyKeys } from '../auth'
import { boolParam, stringParam, type Params } from '../params'
import type { Ctx } from '../context'

/** The phone page: its address carries the key's phone code, which confirms but cannot poll. */
export const phonePath = (phoneCode: string) => `/connect/qr/phone/${encodeURIComponent(phoneCode)}`

export function authRoutes(app: FastifyInstance, ctx: Ctx): void {
  app.get('/connect/qr/key', async (req, reply) => {
    try {
      return ok({ unikey: ctx.qr.create(req.ip) })
    } catch (error) {
      if (!(error instanceof TooManyKeys)) throw error
      reply.header('Retry-After', '60')
      throw new ApiError(429, 'Too many sign-ins are waiting on this server. Try again in a minute.')
    }
  })

  app.get('/connect/qr/create', async (req) => {
    const q = req.query as Params
    const key = stringParam(q, 'key', true, 64)
    const withImage = boolParam(q, 'qrimg', true)
    const phoneCode = ctx.qr.phoneCode(key, req.ip)
    if (phoneCode === undefined) {
      throw notFound('Unknown or expired QR key: request a new one from /connect/qr/key.')
    }
    const qrurl = ctx.baseUrl(req) + phonePath(phoneCode)
    const qrimg = withImage
      ? await QRCode.toDataURL(qrurl, { errorCorrectionLevel: 'M', margin: 2, width: 256 })
      : ''
    return ok({ qrurl, qrimg })
  })

  app.get('/connect/qr/check', async (req) => {
    const key = stringParam(req.query as Params, 'key', true, 200)
    // Only the address that asked for the key (`req.ip`: behind a trusted proxy, the one it forwards).
    return ok(ctx.qr.get(key, req.ip))
  })

  app.get('/connect/status', async (req) => {
    const user = ctx.viewer(req)
    if (!user) throw loginRequired()
    return ok(ctx.catalog.userJson(ctx.baseUrl(req), user))
  })

  // An extension (the spec names no logout): revokes the credential the request carries, or with
  // `all=true` every credential of its user (and, for the owner, every remembered phone).
  app.post('/connect/logout', async (req) => {
    const body =
      req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Params) : {}
    const everywhere = boolParam({ ...(req.query as Params), ...body }, 'all', false)
    const header = req.headers.token
    const user = ctx.credentials.revoke(Array.isArray(header) ? header[0] : header)
    if (!user) throw loginRequired()
    if (everywhere) {
      ctx.credentials.revokeUser(user.id)
      if (user.is_owner) ctx.ownerProof.forgetDevices()
    }
    return ok({ loggedOut: true, everywhere })
  })
  app.route({
    method: ['GET', 'PUT', 'DELETE', 'PATCH'],
    url: '/connect/logout',
    handler: async () => {
      throw new ApiError(405, 'Use POST for /connect/logout (with the Token header to revoke).')
    },
  })
}
