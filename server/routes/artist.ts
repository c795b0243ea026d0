import type { FastifyInstance } from 'fastify'
import { ok } from '../envelope'
import { idParam, intParam, type Params } from '../params'
import type { Ctx } from '../context'
import { MAX_LIMIT } from './playlist'

export function artistRoutes(app: FastifyInstance, ctx: Ctx): void {
  app.get('/artist/recommend', async (req) => {
    const limit = intParam(req.query as Params, 'limit', 10, 1, MAX_LIMIT)
    return ok(ctx.catalog.recommendArtists(ctx.baseUrl(req), limit))
  })

  app.get('/artist/detail', async (req) => {
    const id = idParam(req.query as Params, 'id', true)
    return ok(ctx.catalog.artistDetail(ctx.baseUrl(req), id))
  })
}
