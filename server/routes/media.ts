import { createReadStream } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { contentRangeHeader, parseRange as parseByteRange, unsatisfiedRangeHeader } from '@shared/http/range'
import type { ByteSpan } from '@shared/http/range'
import { LOGIN_REQUIRED, sendFailure } from '../envelope'
import type { Ctx } from '../context'
import { coverSvg } from '../covers'
import { statement } from '../db/sqlite'
import { SignInToMakeAudio } from '../audio/store'

type Range = ByteSpan | 'none' | 'unsatisfiable'

/** Parses a single `bytes=` range; multiple ranges are answered with the whole file, a malformed one 416. */
export function parseRange(header: string | undefined, size: number): Range {
  const range = parseByteRange(header, size)
  if (range === 'whole') return 'none'
  return range === 'malformed' ? 'unsatisfiable' : range
}

const RASTER_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif'])

/** Remembers the last `cap` keys seen; `first` is true the first time a key is seen. */
class SeenKeys {
  private readonly keys = new Set<string>()
  constructor(private readonly cap: number) {}
  first(key: string): boolean {
    if (this.keys.has(key)) return false
    this.keys.add(key)
    if (this.keys.size > this.cap) this.keys.delete(this.keys.values().next().value as string)
    return true
  }
}

export function mediaRoutes(app: FastifyInstance, ctx: Ctx): void {
  const plays = new SeenKeys(50_000)
  app.get('/media/cover/:kind/:id', async (req, reply) => {
    const { kind, id } = req.params as { kind: string; id: string }
    if (!['album', 'artist', 'playlist', 'user'].includes(kind) || !/^\d{1,16}$/.test(id)) {
      return sendFailure(reply, 404, 'No such cover.')
    }
    const image = statement(ctx.db, 'SELECT mime, data FROM images WHERE owner = ?').get(`${kind}:${id}`) as
      { mime: string; data: Uint8Array } | undefined
    reply.header('Cache-Control', 'public, max-age=86400')
    // No CORS approval: an <img> shows a cover without one, but no web page (any site in a browser on
    // this network, or one reaching 127.0.0.1) may read a cover's pixels, which can be the owner's own
    // pictures from an imported folder. The app reads a cover's pixels (the now-playing tint, the
    // notification's PNG) through main's media scheme, which fetches the cover itself.
    // An imported picture is served only as a raster type a browser cannot run script from; whatever its
    // tag claims (image/svg+xml, text/html) it is otherwise replaced by the generated cover.
    if (image && RASTER_TYPES.has(image.mime.toLowerCase())) {
      return reply
        .type(image.mime.toLowerCase())
        .send(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength))
    }
    const svg = coverSvg(ctx.db, kind as 'album' | 'artist' | 'playlist' | 'user', Number(id))
    if (!svg) return sendFailure(reply, 404, 'No such cover.')
    // Our own SVG, sandboxed all the same: opened directly it runs nothing and reaches nothing.
    return reply
      .type('image/svg+xml')
      .header('Content-Security-Policy', "sandbox; default-src 'none'; style-src 'unsafe-inline'")
      .send(svg)
  })

  app.get('/media/:song/:bitrate', async (req, reply) => {
    const { song, bitrate } = req.params as { song: string; bitrate: string }
    const { exp, sig, anon } = req.query as Record<string, unknown>
    if (!/^\d{1,16}$/.test(song) || !/^\d{1,10}$/.test(bitrate)) {
      return sendFailure(reply, 404, 'No such media file.')
    }
    const songId = Number(song)
    const br = Number(bitrate)
    const check = ctx.signer.verify(songId, br, exp, sig, anon)
    // A URL handed out without a login (before this start, on loopback) streams nothing once one is needed.
    if (ctx.requireLogin && anon === '1' && check !== 'invalid') {
      return sendFailure(reply, 401, LOGIN_REQUIRED)
    }
    if (check === 'invalid') {
      return sendFailure(reply, 403, 'This media link is not valid: ask /song/detail for a fresh URL.')
    }
    if (check === 'expired') {
      return sendFailure(reply, 403, 'This media link has expired: ask /song/detail for a fresh URL.')
    }
    let file
    try {
      // A URL handed out without a login makes audio only within the anonymous bound.
      file = await ctx.audio.ensure(songId, br, { anonymous: anon === '1' })
    } catch (error) {
      if (!(error instanceof SignInToMakeAudio)) throw error
      return sendFailure(reply, 401, error.message)
    }
    if (!file) return sendFailure(reply, 404, 'This song is not available at this bitrate.')
    const range = parseRange(req.headers.range, file.size)
    reply.header('Accept-Ranges', 'bytes')
    reply.header('ETag', `"${file.md5}"`)
    reply.header('Cache-Control', 'private, max-age=3600')
    reply.type(file.mime)
    if (range === 'unsatisfiable') {
      reply.header('Content-Range', unsatisfiedRangeHeader(file.size))
      return sendFailure(reply, 416, 'The requested byte range is not satisfiable.')
    }
    // A play counts once per signed URL (one listening session), however many range requests it takes.
    if (req.method === 'GET' && plays.first(`${songId}:${br}:${String(sig)}`)) ctx.catalog.countPlay(songId)
    if (range === 'none') {
      reply.header('Content-Length', file.size)
      return reply.send(req.method === 'HEAD' ? '' : createReadStream(file.path))
    }
    reply.code(206)
    reply.header('Content-Range', contentRangeHeader(range, file.size))
    reply.header('Content-Length', range.end - range.start + 1)
    return reply.send(
      req.method === 'HEAD' ? '' : createReadStream(file.path, { start: range.start, end: range.end }),
    )
  })
}
