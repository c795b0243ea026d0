import Fastify, { type FastifyError, type FastifyInstance } from 'fastify'
import formbody from '@fastify/formbody'
import { ApiError, sendFailure } from './envelope'
import type { Ctx } from './context'
import { authRoutes } from './routes/auth'
import { phoneRoutes } from './routes/phone'
import { playlistRoutes } from './routes/playlist'
import { songRoutes } from './routes/song'
import { artistRoutes } from './routes/artist'
import { searchRoutes } from './routes/search'
import { mediaRoutes } from './routes/media'

export const BODY_LIMIT = 64 * 1024

export async function buildApp(ctx: Ctx, logger: boolean): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    bodyLimit: BODY_LIMIT,
    // Large enough that an oversized Token header reaches us and gets a proper envelope.
    http: { maxHeaderSize: 64 * 1024 },
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: true },
  })
  await app.register(formbody, { bodyLimit: BODY_LIMIT })

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ApiError) return sendFailure(reply, err.status, err.message)
    const status = err.statusCode ?? 500
    switch (err.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendFailure(reply, 400, 'The request body is not valid JSON.')
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendFailure(reply, 413, `The request body is too large (at most ${BODY_LIMIT / 1024} KB).`)
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendFailure(reply, 415, 'Unsupported Content-Type: send JSON, a form, or query parameters.')
    }
    if (status >= 400 && status < 500) {
      if (err instanceof SyntaxError) return sendFailure(reply, 400, 'The request body is not valid JSON.')
      return sendFailure(reply, status, `Bad request: ${err.message}`)
    }
    ctx.log(`error on ${req.method} ${req.url}: ${err.stack ?? err.message}`)
    return sendFailure(reply, 500, 'Internal server error: the request could not be completed. Try again.')
  })

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0].slice(0, 200)
    return sendFailure(
      reply,
      404,
      `Unknown endpoint: ${req.method} ${path}. See docs/data-source.md for the API.`,
    )
  })

  authRoutes(app, ctx)
  phoneRoutes(app, ctx)
  playlistRoutes(app, ctx)
  songRoutes(app, ctx)
  artistRoutes(app, ctx)
  searchRoutes(app, ctx)
  mediaRoutes(app, ctx)
  return app
}
