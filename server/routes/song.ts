import type { FastifyInstance } from 'fastify'
import { ApiError, loginRequired, notFound, ok } from '../envelope'
import { boolParam, idParam, intParam, type Params } from '../params'
import { chooseBitrate } from '../audio/formats'
import type { Ctx } from '../context'
import { SignInToMakeAudio, type MediaFile } from '../audio/store'
import { MAX_LIMIT } from './playlist'

export function songRoutes(app: FastifyInstance, ctx: Ctx): void {
  app.get('/song/recommend', async (req) => {
    const limit = intParam(req.query as Params, 'limit', 10, 1, MAX_LIMIT)
    return ok(ctx.catalog.recommendSongs(ctx.baseUrl(req), limit, ctx.viewer(req)))
  })

  app.get('/song/detail', async (req) => {
    const q = req.query as Params
    const id = idParam(q, 'id', true)
    // uid is accepted (any value) for compatibility; who is asking is decided by the Token header.
    const br = intParam(q, 'br', 320000, 1, 100_000_000)
    const base = ctx.baseUrl(req)
    const found = ctx.catalog.song(base, id)
    if (!found) throw notFound(`No song with id ${id}.`)
    const { song, lyric, tags } = found
    const viewer = ctx.viewer(req)
    const anonymous = viewer === null
    const meta: Record<string, unknown> = {
      isFavorite: viewer ? ctx.catalog.isLiked(viewer.id, id) : false,
      lyric,
      ...tags,
    }
    if (song.privilege.playable) {
      const bitrate = chooseBitrate(song.privilege.bitrates, br)
      let file: MediaFile | null
      try {
        file = bitrate === undefined ? null : await ctx.audio.describe(id, bitrate, { anonymous })
      } catch (error) {
        if (!(error instanceof SignInToMakeAudio)) throw error
        // Past what the server makes for requests without a login: playable once signed in.
        song.privilege = { ...song.privilege, playable: false, reason: error.message }
        song.meta = meta
        return ok(song)
      }
      if (bitrate !== undefined && file) {
        meta.url = base + ctx.signer.path(id, bitrate, Date.now(), { anonymous })
        meta.md5 = file.md5
        meta.size = file.size
        meta.bitrate = bitrate
        meta.type = file.mime
      } else {
        song.privilege = {
          ...song.privilege,
          playable: false,
          reason: 'The audio file is missing on the server.',
        }
      }
    }
    song.meta = meta
    return ok(song)
  })

  const like = async (req: import('fastify').FastifyRequest) => {
    const body =
      req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Params) : {}
    const params: Params = { ...(req.query as Params), ...body }
    const user = ctx.viewer(req)
    if (!user) throw loginRequired()
    const id = idParam(params, 'id', true)
    const value = boolParam(params, 'like', true)
    const result = ctx.catalog.like(user, id, value)
    ctx.catalog.invalidate()
    return ok(result)
  }
  app.put('/song/like', like)
  app.route({
    method: ['GET', 'POST', 'DELETE', 'PATCH'],
    url: '/song/like',
    handler: async () => {
      throw new ApiError(405, 'Use PUT for /song/like (parameters id and like, in the query or the body).')
    },
  })
}
