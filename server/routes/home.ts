import type { FastifyInstance } from 'fastify'
import type { Ctx } from '../context'
import { notFound, ok } from '../envelope'
import { instanceProof } from '../instance'
import { stringParam, type Params } from '../params'
import { statement } from '../db/sqlite'

const escapeHtml = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[c] ?? c,
  )

function health(ctx: Ctx) {
  const count = (sql: string) => (statement(ctx.db, sql).get() as { n: number }).n
  return {
    status: 'ok' as const,
    songs: count('SELECT COUNT(*) AS n FROM songs'),
    artists: count('SELECT COUNT(*) AS n FROM artists'),
    playlists: count("SELECT COUNT(*) AS n FROM playlists WHERE type = 'normal'"),
    uptimeSeconds: Math.round((Date.now() - ctx.startedAt) / 1000),
  }
}

/** `GET /`: what this server is and how to connect a client; `GET /health`: the same facts for monitoring. */
export function homeRoutes(app: FastifyInstance, ctx: Ctx): void {
  app.get('/health', async () => ok(health(ctx)))

  // An extension for the desktop app that started this process (`instanceNonce`): signs its challenge,
  // so the app sends its credential only to the process it started (server/instance.ts).
  app.get('/cadence/instance', async (req) => {
    const nonce = ctx.instanceNonce
    if (!nonce) throw notFound('This data source was not started by the desktop app.')
    const challenge = stringParam(req.query as Params, 'challenge', true, 128)
    return ok({ proof: instanceProof(nonce, challenge) })
  })

  app.get('/', async (req, reply) => {
    const h = health(ctx)
    const url = escapeHtml(ctx.baseUrl(req))
    const n = (value: number) => value.toLocaleString('en-US')
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header(
        'Content-Security-Policy',
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      ).send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(ctx.serverName)} · Cadence data source</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,sans-serif;background:#101418;color:#eef2f5;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{max-width:520px;padding:28px 22px}
h1{font-size:1.5rem;margin:0 0 8px}
p,li{line-height:1.5;color:#b9c3cc}
code{background:#1a2026;color:#fff;padding:3px 6px;border-radius:6px;font-size:1rem;user-select:all}
.ok{color:#3ddc97}
</style></head><body><main>
<h1>${escapeHtml(ctx.serverName)}</h1>
<p>A music data source for Cadence and other players that speak the music data-source API.</p>
<p>Library: <strong>${n(h.songs)}</strong> songs by ${n(h.artists)} artists, ${n(h.playlists)} playlists.</p>
<h2>Connect a player</h2>
<ol>
<li>In Cadence, open <strong>Settings → Data sources</strong> and add <code>${url}</code>.</li>
<li>Sign in by scanning the QR code with your phone, and confirm with the owner passphrase (shown when this
server first started; change it with <code>--owner-passphrase</code>).</li>
</ol>
<p class="ok">Healthy · up ${n(h.uptimeSeconds)} s · <a href="/health" style="color:inherit">/health</a></p>
</main></body></html>`)
  })
}
