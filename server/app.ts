import type { Server } from 'node:http'
import { BlockList, isIP, type Socket } from 'node:net'
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify'
import formbody from '@fastify/formbody'
import { ApiError, LOGIN_REQUIRED, failure, sendFailure } from './envelope'
import type { Ctx } from './context'
import { authRoutes } from './routes/auth'
import { phoneRoutes } from './routes/phone'
import { playlistRoutes } from './routes/playlist'
import { songRoutes } from './routes/song'
import { artistRoutes } from './routes/artist'
import { searchRoutes } from './routes/search'
import { mediaRoutes } from './routes/media'
import { homeRoutes } from './routes/home'

export const BODY_LIMIT = 64 * 1024
/** Longest request head (request line + headers) Node's parser accepts; past it, a 431 envelope. */
export const MAX_HEADER_SIZE = 64 * 1024

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (a header section past the limit, raw
 * bytes the parser rejects): answered on the socket with the spec's envelope, never Fastify's own body.
 */
function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const [status, text, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          `The request's URL and headers are too large (at most ${MAX_HEADER_SIZE / 1024} KB).`,
        ]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request took too long to arrive.']
        : [
            400,
            'Bad Request',
            'The request is malformed: it is not valid HTTP (URLs must be percent-encoded).',
          ]
  const body = JSON.stringify(failure(message))
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  )
}

/** How long a client may take, in milliseconds (`DataSourceOptions.timeouts`). */
export interface Timeouts {
  /** From the connection (or the previous answer) to the end of the request's headers. */
  headersMs: number
  /** From the start of a request to the end of its body. */
  requestMs: number
  /** A connection with no bytes either way (a stalled answer too) is closed after it. */
  idleMs: number
  /** A kept-alive connection waits this long for its next request. */
  keepAliveMs: number
}

/**
 * A client must send its headers within 10 s and its whole request (bodies are at most 64 KB) within
 * 30 s; a connection silent both ways for 60 s is closed (a paused player asks again with a Range), a
 * kept-alive one waits 5 s for the next request.
 */
export const DEFAULT_TIMEOUTS: Timeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  idleMs: 60_000,
  keepAliveMs: 5_000,
}

/**
 * Open connections one client address may hold; past it a new connection is closed at once. Above what a
 * browser (6 per host), the app and the load test (50 clients) open, far below what the process can hold.
 */
export const MAX_CONNECTIONS_PER_CLIENT = 64

export interface AppOptions {
  logger: boolean
  /** Proxies (addresses, CIDR ranges) whose X-Forwarded-For gives `req.ip`; empty: the socket's address. */
  trustProxy: readonly string[]
  timeouts?: Partial<Timeouts>
  maxConnectionsPerClient?: number
}

/** `::ffff:1.2.3.4` is 1.2.3.4: one client, however the socket spells it. */
const plainAddress = (address: string | undefined) => (address ?? '').replace(/^::ffff:(?=\d+\.)/i, '')

function blockList(entries: readonly string[]): BlockList {
  const list = new BlockList()
  for (const entry of entries) {
    const [address, bits] = entry.split('/')
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4'
    if (bits === undefined) list.addAddress(address, family)
    else list.addSubnet(address, Number(bits), family)
  }
  return list
}

/**
 * Counts open connections per client address and closes any past `max` as it arrives, so one address
 * (idle sockets, slow readers) cannot use up what the server holds for everyone. A trusted proxy speaks
 * for many clients: its connections are not counted.
 */
function limitConnectionsPerClient(server: Server, max: number, exempt: BlockList): void {
  const open = new Map<string, number>()
  server.on('connection', (socket: Socket) => {
    const address = plainAddress(socket.remoteAddress)
    if (exempt.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4')) return
    const count = (open.get(address) ?? 0) + 1
    if (count > max) {
      socket.destroy()
      return
    }
    open.set(address, count)
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1
      if (left <= 0) open.delete(address)
      else open.set(address, left)
    })
  })
}

/**
 * What a request without a login may still reach when the server requires one (`requireLogin`): the
 * sign-in itself (`/connect/…`, with the phone page), `/`, `/health`, the app's `/cadence/instance`, and
 * `/media/…`, whose songs need a signed URL (only signed-in requests get one then; the route refuses the
 * anonymous kind) and whose covers an `<img>` loads without a credential.
 */
function openWithoutLogin(url: string): boolean {
  const path = url.split('?', 1)[0]
  return (
    path === '/' ||
    path === '/health' ||
    path === '/cadence/instance' ||
    path.startsWith('/connect/') ||
    path.startsWith('/media/')
  )
}

export async function buildApp(ctx: Ctx, options: AppOptions): Promise<FastifyInstance> {
  const { logger, trustProxy } = options
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
  const app = Fastify({
    logger,
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // Only the proxies named: anyone else's X-Forwarded-For is ignored (it would let a stranger pick the
    // address the attempt limits count).
    trustProxy: trustProxy.length > 0 ? [...trustProxy] : false,
    bodyLimit: BODY_LIMIT,
    // Large enough that an oversized Token header reaches us and gets a proper envelope.
    http: {
      maxHeaderSize: MAX_HEADER_SIZE,
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      // Node checks the header and request timeouts this often (its default, 30 s, let a slow client
      // keep its connection that much longer).
      connectionsCheckingInterval: Math.min(1000, Math.ceil(timeouts.headersMs / 4)),
    },
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: true },
    clientErrorHandler,
    // Errors Fastify raises while routing (a broken percent escape in the path): the envelope, 400.
    frameworkErrors: (error, _req, reply) => {
      void sendFailure(
        reply,
        400,
        error.code === 'FST_ERR_BAD_URL'
          ? 'The request URL is malformed: a percent escape in the path is broken.'
          : `Bad request: ${error.message}`,
      )
    },
  })

  limitConnectionsPerClient(
    app.server,
    options.maxConnectionsPerClient ?? MAX_CONNECTIONS_PER_CLIENT,
    blockList(trustProxy),
  )

  // Only names this server answers to (DNS rebinding), then nosniff on every answer.
  app.addHook('onRequest', async (req, reply) => {
    if (!ctx.allowedHost(req.headers.host)) {
      const name = String(req.headers.host ?? '').slice(0, 100)
      return sendFailure(
        reply,
        403,
        `This data source does not answer to the name "${name}". If that is this server's name, start it with --public-name ${name.split(':')[0] || 'NAME'}.`,
      )
    }
    // Just after a start with a new passphrase, credentials and remembered phones from before are being
    // revoked: nothing that trusts them is answered until that is done (about 0.1 s).
    if (!ctx.ownerProof.settled && (req.headers.token !== undefined || req.url.startsWith('/connect/'))) {
      await ctx.ownerProof.ready()
    }
    // Open to the network for a phone (`requireLogin`): a stranger lists, searches and streams nothing.
    if (ctx.requireLogin && !openWithoutLogin(req.url) && ctx.viewer(req) === null) {
      return sendFailure(reply, 401, LOGIN_REQUIRED)
    }
  })
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff')
    return payload
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
    ctx.warn(`500 [${req.id}] ${req.method} ${req.url.slice(0, 200)}: ${err.stack ?? err.message}`)
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

  homeRoutes(app, ctx)
  authRoutes(app, ctx)
  phoneRoutes(app, ctx)
  playlistRoutes(app, ctx)
  songRoutes(app, ctx)
  artistRoutes(app, ctx)
  searchRoutes(app, ctx)
  mediaRoutes(app, ctx)
  return app
}
