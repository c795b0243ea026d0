import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Ctx } from '../context'
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_S } from '../owner'

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
label{display:block;margin-top:18px;color:#b9c3cc}
input[type=password]{width:100%;box-sizing:border-box;margin-top:6px;font-size:1.1rem;padding:12px;border-radius:10px;border:1px solid #3a434c;background:#1a2026;color:#fff}
.check{display:flex;gap:8px;align-items:center}
.error{color:#ff8a8a}
</style></head><body><main>${body}</main></body></html>`
}

/** Phone pages: no framing, no scripts, forms only to this origin, nothing cached, no Referer beyond this origin. */
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

function cookieValue(req: FastifyRequest, name: string): string | undefined {
  const header = req.headers.cookie
  if (typeof header !== 'string') return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}

/**
 * A POST must come from this server's own page. Browsers say where a request comes from in two headers
 * no page script can set: `Sec-Fetch-Site` (Chromium 76+, Firefox 90+, Safari 16.4+) is the authority
 * when present, and only `same-origin` passes. Without it, `Origin` must name this host; `Origin: null`
 * (a sandboxed or opaque page, or a referrer policy of no-referrer) is refused. Clients that send
 * neither (curl) still need the page's form token and the owner's proof. The pages are sent with
 * `Referrer-Policy: same-origin`, under which a browser's same-origin form POST carries the real Origin;
 * under `no-referrer` it carries `Origin: null`, which refused every real phone (docs/security.md).
 */
function sameOrigin(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site']
  if (typeof site === 'string') return site === 'same-origin'
  const origin = req.headers.origin
  if (typeof origin !== 'string') return true
  try {
    return origin !== 'null' && new URL(origin).host === req.headers.host
  } catch {
    return false
  }
}

export function phoneRoutes(app: FastifyInstance, ctx: Ctx): void {
  const server = () => escapeHtml(ctx.serverName)
  const user = () => escapeHtml(ctx.owner.name)

  const send = (reply: FastifyReply, status: number, title: string, html: string) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Content-Security-Policy', PAGE_CSP)
      .header('X-Frame-Options', 'DENY')
      .header('Referrer-Policy', 'same-origin')
      .send(page(title, html))

  const expired = (reply: FastifyReply) =>
    send(
      reply,
      410,
      'Code expired',
      '<h1>This code has expired</h1><p>Go back to Cadence on your computer; it shows a new QR code.</p>',
    )

  /** The confirm form: the passphrase field unless this phone is remembered. */
  const form = (reply: FastifyReply, key: string, remembered: boolean, status = 200, error = '') => {
    const token = ctx.qr.newFormToken(key)
    if (!token) return expired(reply)
    const proof = remembered
      ? '<p class="note">This phone is remembered as the owner\'s: one tap confirms.</p>'
      : `<label for="passphrase">Owner passphrase</label>
<input id="passphrase" name="passphrase" type="password" autocomplete="current-password" required autofocus>
<label class="check"><input type="checkbox" name="remember" value="1" checked> Remember this phone</label>`
    return send(
      reply,
      status,
      'Sign in to Cadence',
      `<h1>Sign in to Cadence?</h1>
<p>A Cadence app is asking to sign in as <strong>${user()}</strong> on the music server <strong>${server()}</strong>.</p>
<p>Only confirm if you just scanned this code from your own screen.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post">
<input type="hidden" name="token" value="${token}">
${proof}
<div class="row">
<button class="no" name="action" value="deny" type="submit" formnovalidate>Deny</button>
<button class="ok" name="action" value="confirm" type="submit">Confirm</button>
</div>
</form>
<p class="note">The code is valid for five minutes.</p>`,
    )
  }

  // The path carries the key's phone code (what the QR image shows), never the key the client polls with.
  const keyOf = (req: FastifyRequest) => ctx.qr.keyForPhoneCode((req.params as { code: string }).code) ?? ''

  app.get('/connect/qr/phone/:code', async (req: FastifyRequest, reply) => {
    const key = keyOf(req)
    const status = ctx.qr.scan(key)
    if (status === -1) return expired(reply)
    if (status === 2) {
      return send(
        reply,
        200,
        'Signed in',
        `<h1>Already signed in</h1><p>Cadence is signed in as <strong>${user()}</strong>.</p>`,
      )
    }
    return form(reply, key, ctx.ownerProof.isRememberedDevice(cookieValue(req, DEVICE_COOKIE)))
  })

  app.post('/connect/qr/phone/:code', async (req, reply) => {
    const key = keyOf(req)
    const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {}
    if (!ctx.qr.exists(key)) return expired(reply)
    if (!sameOrigin(req) || !ctx.qr.formTokenMatches(key, body.token)) {
      return send(
        reply,
        403,
        'Open the code again',
        '<h1>This page is out of date</h1><p>Scan the QR code on your computer again and confirm from the page that opens.</p>',
      )
    }
    const action = body.action
    if (action === 'deny') {
      const status = ctx.qr.deny(key)
      if (status === 2) {
        return send(
          reply,
          200,
          'Signed in',
          `<h1>Already confirmed</h1><p>This sign-in was already confirmed.</p>`,
        )
      }
      return send(
        reply,
        200,
        'Denied',
        '<h1>Sign-in denied</h1><p>Nothing was signed in. You can close this page.</p>',
      )
    }
    if (action !== 'confirm') {
      return send(
        reply,
        400,
        'Choose an action',
        '<h1>Choose Confirm or Deny</h1><p>Go back and press one of the buttons.</p>',
      )
    }
    const remembered = ctx.ownerProof.isRememberedDevice(cookieValue(req, DEVICE_COOKIE))
    if (!remembered) {
      const client = req.ip
      // Admitted before the slow hash, so requests sent at once all count against the limit.
      const wait = ctx.attempts.admit(client)
      if (wait > 0) {
        const minutes = Math.ceil(wait / 60_000)
        reply.header('Retry-After', String(Math.ceil(wait / 1000)))
        return send(
          reply,
          429,
          'Too many attempts',
          `<h1>Too many attempts</h1><p>The passphrase was wrong too often from this device. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.</p>`,
        )
      }
      let right = false
      try {
        right = await ctx.ownerProof.checkPassphrase(body.passphrase)
      } finally {
        if (right) ctx.attempts.succeed(client)
        else ctx.attempts.fail(client)
      }
      if (!right) {
        return form(
          reply,
          key,
          false,
          403,
          'That passphrase is not right. It was shown when the server first started.',
        )
      }
      if (body.remember !== undefined) {
        reply.header(
          'Set-Cookie',
          `${DEVICE_COOKIE}=${ctx.ownerProof.rememberDevice()}; Max-Age=${DEVICE_COOKIE_MAX_AGE_S}; Path=/connect/qr/phone; HttpOnly; SameSite=Strict`,
        )
      }
    }
    const status = ctx.qr.confirm(key, () => ctx.credentials.issue(ctx.owner.id))
    if (status !== 2) return expired(reply)
    return send(
      reply,
      200,
      'Signed in',
      `<h1>Done</h1><p>Cadence is now signed in as <strong>${user()}</strong>. You can close this page.</p>`,
    )
  })
}
