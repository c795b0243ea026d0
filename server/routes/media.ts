import { createReadStream } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { sendFailure } from '../envelope'
import type { Ctx } from '../context'
import { coverSvg } from '../covers'

type Range = { start: number; end: number } | 'none' | 'unsatisfiable'

/** Parses a single `bytes=` range; multiple ranges are answered with the whole file. */
export function parseRange(header: string | undefined, size: number): Range {
  if (!header) return 'none'
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/.exec(header)
  if (!m) return header.startsWith('bytes=') && header.includes(',') ? 'none' : 'unsatisfiable'
  const [, a, b] = m
  if (a === '' && b === '') return 'unsatisfiable'
  let start: number
  let end: number
  if (a === '') {
    const suffix = Number(b)
    if (suffix === 0) return 'unsatisfiable'
    start = Math.max(0, size - suffix)
    end = size - 1
  } else {
    start = Number(a)
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1)
    if (b !== '' && Number(b) < start) return 'unsatisfiable'
  }
  if (start >= size || size === 0) return 'unsatisfiable'
  return { start, end }
}

export function mediaRoutes(app: FastifyInstance, ctx: Ctx): void {
  app.get('/media/cover/:kind/:id', async (req, reply) => {
    const { kind, id } = req.params as { kind: string; id: string }
    if (!['album', 'artist', 'playlist', 'user'].includes(kind) || !/^\d{1,16}$/.test(id)) {
      return sendFailure(reply, 404, 'No such cover.')
    }
    const image = ctx.db.prepare('SELECT mime, data FROM images WHERE owner = ?').get(`${kind}:${id}`) as
      { mime: string; data: Buffer } | undefined
    reply.header('Cache-Control', 'public, max-age=86400')
    if (image) return reply.type(image.mime).send(image.data)
    const svg = coverSvg(ctx.db, kind as 'album' | 'artist' | 'playlist' | 'user', Number(id))
    if (!svg) return sendFailure(reply, 404, 'No such cover.')
    return reply.type('image/svg+xml').send(svg)
  })

  app.get('/media/:song/:bitrate', async (req, reply) => {
    const { song, bitrate } = req.params as { song: string; bitrate: string }
    const { exp, sig } = req.query as Record<string, unknown>
    if (!/^\d{1,16}$/.test(song) || !/^\d{1,10}$/.test(bitrate)) {
      return sendFailure(reply, 404, 'No such media file.')
    }
    const songId = Number(song)
    const br = Number(bitrate)
    const check = ctx.signer.verify(songId, br, exp, sig)
    if (check === 'invalid') {
      return sendFailure(reply, 403, 'This media link is not valid: ask /song/detail for a fresh URL.')
    }
    if (check === 'expired') {
      return sendFailure(reply, 403, 'This media link has expired: ask /song/detail for a fresh URL.')
    }
    const file = ctx.audio.ensure(songId, br)
    if (!file) return sendFailure(reply, 404, 'This song is not available at this bitrate.')
    const range = parseRange(req.headers.range, file.size)
    reply.header('Accept-Ranges', 'bytes')
    reply.header('ETag', `"${file.md5}"`)
    reply.header('Cache-Control', 'private, max-age=3600')
    reply.type(file.mime)
    if (range === 'unsatisfiable') {
      reply.header('Content-Range', `bytes */${file.size}`)
      return sendFailure(reply, 416, 'The requested byte range is not satisfiable.')
    }
    if (req.method === 'GET' && (range === 'none' || range.start === 0)) ctx.catalog.countPlay(songId)
    if (range === 'none') {
      reply.header('Content-Length', file.size)
      return reply.send(req.method === 'HEAD' ? '' : createReadStream(file.path))
    }
    reply.code(206)
    reply.header('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`)
    reply.header('Content-Length', range.end - range.start + 1)
    return reply.send(
      req.method === 'HEAD' ? '' : createReadStream(file.path, { start: range.start, end: range.end }),
    )
  })
}
