import type { FastifyInstance } from 'fastify'
import { ok } from '../envelope'
import { idParam, intParam, type Params } from '../params'
import type { Ctx } from '../context'
import { MAX_DETAIL_SONGS } from '../catalog'

export const MAX_LIST_LIMIT = 1000
export const MAX_LIMIT = 100
export const MAX_OFFSET = 1_000_000

export function playlistRoutes(app: FastifyInstance, ctx: Ctx): void {
  app.get('/playlist/list', async (req) => {
    const q = req.query as Params
    const uid = idParam(q, 'uid', true)
    const limit = intParam(q, 'limit', 1000, 1, MAX_LIST_LIMIT)
    const offset = intParam(q, 'offset', 0, 0, MAX_OFFSET)
    return ok(ctx.catalog.userPlaylists(ctx.baseUrl(req), uid, ctx.viewer(req), limit, offset))
  })

  app.get('/playlist/recommend', async (req) => {
    const limit = intParam(req.query as Params, 'limit', 10, 1, MAX_LIMIT)
    return ok(ctx.catalog.recommendPlaylists(ctx.baseUrl(req), limit, ctx.viewer(req)))
  })

  app.get('/playlist/toplist', async (req) => {
    const limit = intParam(req.query as Params, 'limit', 10, 1, MAX_LIMIT)
    return ok(ctx.catalog.toplists(ctx.baseUrl(req), limit))
  })

  // `offset` and `limit` are this server's extension for clients that page long lists (spec: `id` only).
  app.get('/playlist/detail', async (req) => {
    const q = req.query as Params
    const id = idParam(q, 'id', true)
    const offset = intParam(q, 'offset', 0, 0, MAX_DETAIL_SONGS)
    const limit =
      q.limit === undefined ? undefined : intParam(q, 'limit', MAX_DETAIL_SONGS, 1, MAX_DETAIL_SONGS)
    return ok(ctx.catalog.playlistDetail(ctx.baseUrl(req), id, ctx.viewer(req), { offset, limit }))
  })
}
