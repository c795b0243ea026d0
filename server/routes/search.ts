import type { FastifyInstance } from 'fastify'
import { ok } from '../envelope'
import { intParam, stringParam, type Params } from '../params'
import type { Ctx } from '../context'
import { MAX_LIMIT } from './playlist'

export const MAX_KEYWORDS_LENGTH = 100

export function searchRoutes(app: FastifyInstance, ctx: Ctx): void {
  app.get('/search', async (req) => {
    const q = req.query as Params
    const keywords = stringParam(q, 'keywords', true, MAX_KEYWORDS_LENGTH)
    const limit = intParam(q, 'limit', 10, 1, MAX_LIMIT)
    return ok(ctx.catalog.search(ctx.baseUrl(req), keywords, limit))
  })
}
