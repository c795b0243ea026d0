import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Ctx } from '../context'

const escapeHtml = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[c] ?? c,
  )

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Cadence</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,sans-serif;background:#101418;color:#eef2f5;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{max-width:360px;width:100%;padding:28px 22px;box-sizing:border-box}
h1{font-size:1.4rem;margin:0 0 12px}
p{line-height:1.45;color:#b9c3cc}
strong{color:#fff}
.row{display:flex;gap:12px;margin-top:24px}
button{flex:1;font-size:1.05rem;padding:14px;border-radius:12px;border:0;font-weight:600}
.ok{background:#3ddc97;color:#062016}.no{background:#2a3138;color:#eef2f5}
.note{font-size:.85rem;margin-top:20px}
</style></head><body><main>${body}</main></body></html>`
}

export function phoneRoutes(app: FastifyInstance, ctx: Ctx): void {
  const server = () => escapeHtml(ctx.serverName)
  const user = () => escapeHtml(ctx.owner.name)

  const expired = (reply: FastifyReply) =>
    reply
      .code(410)
      .type('text/html; charset=utf-8')
      .send(
        page(
          'Code expired',
          '<h1>This code has expired</h1><p>Go back to Cadence on your computer; it shows a new QR code.</p>',
        ),
      )

  app.get('/connect/qr/phone/:key', async (req: FastifyRequest, reply) => {
    const { key } = req.params as { key: string }
    const status = ctx.qr.scan(key)
    if (status === -1) return expired(reply)
    reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store')
    if (status === 2) {
      return page(
        'Signed in',
        `<h1>Already signed in</h1><p>Cadence is signed in as <strong>${user()}</strong>.</p>`,
      )
    }
    return page(
      'Sign in to Cadence',
      `<h1>Sign in to Cadence?</h1>
<p>A Cadence app is asking to sign in as <strong>${user()}</strong> on the music server <strong>${server()}</strong>.</p>
<p>Only confirm if you just scanned this code from your own screen.</p>
<form method="post" class="row">
<button class="no" name="action" value="deny" type="submit">Deny</button>
<button class="ok" name="action" value="confirm" type="submit">Confirm</button>
</form>
<p class="note">The code is valid for five minutes.</p>`,
    )
  })

  app.post('/connect/qr/phone/:key', async (req, reply) => {
    const { key } = req.params as { key: string }
    const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {}
    const action = body.action ?? (req.query as Record<string, unknown>).action
    reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store')
    if (action === 'confirm') {
      const status = ctx.qr.confirm(key, () => ctx.credentials.issue(ctx.owner.id))
      if (status !== 2) return expired(reply)
      return page(
        'Signed in',
        `<h1>Done</h1><p>Cadence is now signed in as <strong>${user()}</strong>. You can close this page.</p>`,
      )
    }
    if (action === 'deny') {
      const status = ctx.qr.deny(key)
      if (status === 2) {
        return page('Signed in', `<h1>Already confirmed</h1><p>This sign-in was already confirmed.</p>`)
      }
      return page('Denied', '<h1>Sign-in denied</h1><p>Nothing was signed in. You can close this page.</p>')
    }
    return reply
      .code(400)
      .send(
        page(
          'Choose an action',
          '<h1>Choose Confirm or Deny</h1><p>Go back and press one of the buttons.</p>',
        ),
      )
  })
}
