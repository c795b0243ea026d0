import { createServer, request } from 'node:http'
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { forwardRequest } from './proxy-forward'
import { createQuirkExtensions } from './quirk-extensions'
import type { QuirkExtensions } from './quirk-extensions'

/**
 * A data source that behaves like one of the servers people actually run, made by putting a proxy in
 * front of the reference server. The answers are those the real servers give, as read from their source:
 *
 * - `netease` (NeteaseMusicAdapter): any failure, a forgotten session included, is HTTP 200
 *   `{ code: -1, message: '服务器内部错误' }`; `/connect/status` without a cookie is `-1 请先登录`.
 * - `qq` (QMusicAdapter): `/connect/status` with a forgotten session is HTTP 200 `-1 获取用户信息失败: …`,
 *   `/search` is `-1 搜索失败: …`, and the other calls fail with a plain-text HTTP 500.
 *
 * Neither ever answers 401. The session behind a Token is the reference server's: `expireCredentials()`
 * there makes the proxy answer the calls that need the session the way the real server would.
 * With `requireUid`, `/song/detail` without `uid` fails as it does on NeteaseMusicAdapter (which reads
 * the user's liked songs by uid for every song detail). With `extensions` (netease), the proxy also
 * answers the adapter's endpoints beyond the document (`./quirk-extensions.ts`).
 */

export type QuirkProfile = 'netease' | 'qq'

/**
 * With `shapes`, the answers also take the shapes those servers give, which the reference server does not:
 * no `meta.kind` on any playlist (ours marks the liked-songs playlist there); a playlist detail without
 * `name` and `cover` (both real servers send such lists); lyric translations with `//` on the lines that
 * have none (QQ Music); and, for `qq`, no `/artist/detail` route at all (a bare HTTP 404 "Not Found").
 */
function reshape(path: string, body: Buffer): Buffer {
  let json: { data?: unknown }
  try {
    json = JSON.parse(body.toString('utf8')) as { data?: unknown }
  } catch {
    return body
  }
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit)
    if (!value || typeof value !== 'object') return
    const record = value as Record<string, unknown>
    const meta = record.meta as Record<string, unknown> | undefined
    if (meta && typeof meta === 'object') {
      delete meta.kind
      const lyric = meta.lyric as Record<string, unknown> | undefined
      if (lyric && typeof lyric.translation === 'string') {
        // Every other translated line becomes QQ Music's `//`.
        let n = 0
        lyric.translation = lyric.translation.replace(/^(\[[^\]]+\])(.*)$/gm, (line, time: string) =>
          n++ % 2 === 1 ? `${time}//` : line,
        )
      }
    }
    for (const child of Object.values(record)) visit(child)
  }
  visit(json.data)
  if (path === '/playlist/detail' && json.data && typeof json.data === 'object') {
    const detail = json.data as Record<string, unknown>
    delete detail.name
    delete detail.cover
  }
  return Buffer.from(JSON.stringify(json))
}

export interface QuirkProxy {
  url: string
  /** Requests seen, by path. */
  readonly hits: Map<string, number>
  /** The adapter's endpoints beyond the document (`extensions`), and what they hold. */
  readonly extensions?: QuirkExtensions
  close(): Promise<void>
}

/** The calls that use the session on the real servers (the rest work anonymously there too). */
const SESSION_PATHS: Record<QuirkProfile, Set<string>> = {
  netease: new Set(['/connect/status', '/song/like', '/song/detail', '/playlist/list', '/song/recommend']),
  qq: new Set(['/connect/status', '/song/like', '/song/detail', '/playlist/list', '/search']),
}

const envelope = (code: number, message: string) =>
  JSON.stringify({ code, message, data: null, timestamp: new Date().toISOString() })

/** What the real server answers on `path` when the session is missing or forgotten. */
function forgotten(
  profile: QuirkProfile,
  path: string,
  hadToken: boolean,
): { status: number; body: string; type: string } {
  const json = 'application/json'
  if (profile === 'netease') {
    if (path === '/connect/status' && !hadToken)
      return { status: 200, type: json, body: envelope(-1, '请先登录') }
    return { status: 200, type: json, body: envelope(-1, '服务器内部错误') }
  }
  if (path === '/connect/status') {
    return hadToken
      ? { status: 200, type: json, body: envelope(-1, '获取用户信息失败: Credential expired') }
      : { status: 200, type: json, body: envelope(401, '请先登录') }
  }
  if (path === '/search') return { status: 200, type: json, body: envelope(-1, '搜索失败: 登录态失效') }
  return { status: 500, type: 'text/plain; charset=utf-8', body: 'Internal Server Error' }
}

export async function startQuirkProxy(
  target: string,
  profile: QuirkProfile,
  options: { requireUid?: boolean; shapes?: boolean; extensions?: boolean } = {},
): Promise<QuirkProxy> {
  const upstream = new URL(target)
  const hits = new Map<string, number>()
  const sockets = new Set<Socket>()
  const extensions = options.extensions ? createQuirkExtensions(upstream) : undefined

  /** Whether the reference server still knows the Token (asked the way the real server asks its upstream). */
  function sessionValid(token: string): Promise<boolean> {
    return new Promise((resolve) => {
      const ask = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: '/connect/status',
          headers: { token, host: upstream.host },
        },
        (answer) => {
          answer.resume()
          resolve(answer.statusCode === 200)
        },
      )
      ask.on('error', () => resolve(false))
      ask.end()
    })
  }

  function answer(res: ServerResponse, reply: { status: number; body: string; type: string }) {
    res.writeHead(reply.status, { 'Content-Type': reply.type })
    res.end(reply.body)
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://proxy')
    const path = url.pathname
    hits.set(path, (hits.get(path) ?? 0) + 1)
    const token = typeof req.headers.token === 'string' ? req.headers.token : undefined

    if (options.shapes && profile === 'qq' && path === '/artist/detail') {
      return answer(res, { status: 404, type: 'text/plain; charset=utf-8', body: 'Not Found' })
    }
    if (options.requireUid && path === '/song/detail' && !url.searchParams.get('uid')) {
      return answer(res, forgotten(profile, path, !!token))
    }
    if (token && SESSION_PATHS[profile].has(path) && !(await sessionValid(token))) {
      return answer(res, forgotten(profile, path, true))
    }
    if (extensions && (await extensions.handle(req, res, url, token))) return
    // The real servers never answer 401: a refusal upstream becomes their own kind of failure.
    forwardRequest(upstream, req, res, (status, headers, body) => {
      if (status === 401) return answer(res, forgotten(profile, path, !!token))
      const sent = options.shapes && /json/.test(String(headers['content-type'])) ? reshape(path, body) : body
      res.writeHead(status, { ...(headers as OutgoingHttpHeaders), 'content-length': sent.length })
      res.end(sent)
    })
  }

  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()))
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no address')
  return {
    url: `http://127.0.0.1:${address.port}`,
    hits,
    extensions,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => done())
      }),
  }
}
