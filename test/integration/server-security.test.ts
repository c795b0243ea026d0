import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { DatabaseSync } from 'node:sqlite'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startDataSource, type DataSourceHandle } from '@server/index'
import { parseArgs, USAGE } from '@server/args'
import { MAX_CREDENTIALS_PER_USER, MAX_PENDING_KEYS_PER_CLIENT } from '@server/auth'
import { phoneFormToken } from '@main/core/auth/builtin-signin'
import { OWNER_PASSPHRASE, confirmOnPhone } from '../support/phone'

/**
 * The reference data source as a stranger on the same network meets it (issue 12): no credential without
 * the owner's proof, only the names it answers to, and the spec's envelope for every bad request.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field below
type Envelope = { code: number; message: string; data: any; timestamp: string }
let server: DataSourceHandle
let dataDir: string

const json = async (path: string, init?: RequestInit) => {
  const res = await fetch(server.url + path, init)
  return { status: res.status, headers: res.headers, body: (await res.json()) as Envelope }
}
const newCode = async () => {
  const { unikey } = (await json('/connect/qr/key')).body.data
  const { qrurl } = (await json(`/connect/qr/create?key=${unikey}&qrimg=false`)).body.data
  return { unikey: unikey as string, qrurl: qrurl as string }
}
const check = async (unikey: string) => (await json(`/connect/qr/check?key=${unikey}`)).body.data

/** Sends raw bytes (what fetch would refuse to send) and returns the response's status and body. */
function raw(request: Buffer | string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(server.url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request))
    const chunks: Buffer[] = []
    socket.on('data', (c) => chunks.push(c))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) })
    })
  })
}

/** A server of its own, so failed attempts counted per address in one test do not limit another. */
async function freshServer() {
  const dir = mkdtempSync(join(tmpdir(), 'cadence-security-own-'))
  const own = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir: dir, port: 0, demo: 5 })
  const get = async (path: string) => ((await (await fetch(own.url + path)).json()) as Envelope).data
  return {
    url: own.url,
    newCode: async () => {
      const { unikey } = await get('/connect/qr/key')
      const { qrurl } = await get(`/connect/qr/create?key=${unikey}&qrimg=false`)
      return { unikey: unikey as string, qrurl: qrurl as string }
    },
    check: (unikey: string) => get(`/connect/qr/check?key=${unikey}`),
    async close() {
      await own.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cadence-security-'))
  server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 40 })
})
afterAll(async () => {
  await server?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('phone sign-in', () => {
  it('gives a stranger no credential: no passphrase, a wrong one, no token, action in the query, a foreign origin', async () => {
    const own = await freshServer()
    try {
      const { unikey, qrurl } = await own.newCode()
      const page = await fetch(qrurl)
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      expect(page.headers.get('x-frame-options')).toBe('DENY')
      expect(phoneFormToken(await page.text())).toBeTruthy()
      /** Everything the page shows a visitor: its form token, taken afresh before each attempt. */
      const token = async () => phoneFormToken(await (await fetch(qrurl)).text())!
      const post = (body: Record<string, string>, headers: Record<string, string> = {}, url = qrurl) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
          body: new URLSearchParams(body).toString(),
        })

      expect((await post({ action: 'confirm', token: await token() })).status).toBe(403)
      expect(
        (await post({ action: 'confirm', token: await token(), passphrase: 'not it at all' })).status,
      ).toBe(403)
      // No token (a page framed or posted from elsewhere), even with the right passphrase.
      expect((await post({ action: 'confirm', passphrase: OWNER_PASSPHRASE })).status).toBe(403)
      // The action only counts in the form body.
      expect((await post({ token: await token() }, {}, `${qrurl}?action=confirm`)).status).toBe(400)
      // A page on another origin posting the form.
      const foreign = await post(
        { action: 'confirm', token: await token(), passphrase: OWNER_PASSPHRASE },
        { origin: 'http://evil.example' },
      )
      expect(foreign.status).toBe(403)
      expect(await own.check(unikey)).toEqual({ status: 1, cookie: '' })
    } finally {
      await own.close()
    }
  })

  it('signs the owner in with the passphrase, hands the credential over once, remembers the phone', async () => {
    const first = await newCode()
    const confirmed = await confirmOnPhone(first.qrurl)
    expect(confirmed.status).toBe(200)
    const setCookie = confirmed.headers.get('set-cookie') ?? ''
    expect(setCookie).toMatch(/^cadence_owner=[A-Za-z0-9_-]{40,}/)
    expect(setCookie).toContain('HttpOnly')
    expect(setCookie).toContain('SameSite=Strict')
    const done = await check(first.unikey)
    expect(done.status).toBe(2)
    expect((await json('/connect/status', { headers: { Token: done.cookie } })).body.code).toBe(0)
    // The credential is in exactly one answer.
    expect(await check(first.unikey)).toEqual({ status: -1, cookie: '' })

    // Second sign-in on the remembered phone: no passphrase field, one tap.
    const cookie = setCookie.split(';')[0]
    const second = await newCode()
    const page = await (await fetch(second.qrurl, { headers: { cookie } })).text()
    expect(page).not.toContain('name="passphrase"')
    expect((await confirmOnPhone(second.qrurl, { cookie, passphrase: null })).status).toBe(200)
    expect((await check(second.unikey)).status).toBe(2)

    // A made-up cookie is no proof.
    const third = await newCode()
    const forged = await confirmOnPhone(third.qrurl, {
      cookie: `cadence_owner=${'A'.repeat(43)}`,
      passphrase: null,
    })
    expect(forged.status).toBe(403)
    expect((await check(third.unikey)).status).toBe(1)
  })

  it('refuses further passphrase attempts from an address after five wrong ones', async () => {
    const own = await freshServer()
    try {
      const { unikey, qrurl } = await own.newCode()
      for (let i = 0; i < 5; i++) {
        expect((await confirmOnPhone(qrurl, { passphrase: `wrong guess ${i}` })).status).toBe(403)
      }
      const limited = await confirmOnPhone(qrurl)
      expect(limited.status).toBe(429)
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
      expect((await own.check(unikey)).status).toBe(1)
    } finally {
      await own.close()
    }
  })

  it('caps pending keys per client and live credentials per user, dropping the oldest', async () => {
    const keys: string[] = []
    for (let i = 0; i < MAX_PENDING_KEYS_PER_CLIENT + 1; i++) keys.push((await newCode()).unikey)
    expect((await check(keys[0])).status).toBe(-1)
    expect((await check(keys.at(-1)!)).status).toBe(0)
  })
})

describe('live credentials', () => {
  it('keeps at most MAX_CREDENTIALS_PER_USER per user: the oldest is revoked', async () => {
    const own = await freshServer()
    try {
      const status = (credential: string) =>
        fetch(`${own.url}/connect/status`, { headers: { Token: credential } }).then((r) => r.status)
      const credentials: string[] = []
      let cookie: string | undefined
      for (let i = 0; i < MAX_CREDENTIALS_PER_USER + 1; i++) {
        const { unikey, qrurl } = await own.newCode()
        const res = await confirmOnPhone(qrurl, { cookie, passphrase: cookie ? null : OWNER_PASSPHRASE })
        cookie ??= res.headers.get('set-cookie')!.split(';')[0]
        credentials.push((await own.check(unikey)).cookie)
      }
      expect(await status(credentials[0])).toBe(401)
      expect(await status(credentials[1])).toBe(200)
      expect(await status(credentials.at(-1)!)).toBe(200)
    } finally {
      await own.close()
    }
  })
})

describe('hosts', () => {
  it('answers loopback names and refuses any other Host (DNS rebinding) with an envelope', async () => {
    const port = new URL(server.url).port
    expect(
      (await raw(`GET /health HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: close\r\n\r\n`)).status,
    ).toBe(200)
    const rebound = await raw(
      `GET /health HTTP/1.1\r\nHost: attacker.example:${port}\r\nConnection: close\r\n\r\n`,
    )
    expect(rebound.status).toBe(403)
    expect(JSON.parse(rebound.body)).toMatchObject({ code: -1, data: null })
    const none = await raw(`GET /health HTTP/1.1\r\nConnection: close\r\n\r\n`)
    expect(none.status).toBeGreaterThanOrEqual(400)
  })
})

describe('bad requests get the envelope with a 4xx', () => {
  const expectEnvelope = (status: number, body: string, want: number) => {
    expect(status).toBe(want)
    const envelope = JSON.parse(body)
    expect(envelope).toMatchObject({ code: -1, data: null })
    expect(typeof envelope.message).toBe('string')
    expect(envelope.timestamp).toMatch(/Z$/)
  }

  it('a NUL byte in keywords', async () => {
    const res = await fetch(`${server.url}/search?keywords=%00abc`)
    expectEnvelope(res.status, await res.text(), 400)
  })

  it('a broken percent escape in the path', async () => {
    const res = await raw(`GET /playlist/%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    expectEnvelope(res.status, res.body, 400)
  })

  it('raw UTF-8 in the query', async () => {
    const res = await raw(
      Buffer.concat([
        Buffer.from('GET /search?keywords='),
        Buffer.from('夜空', 'utf8'),
        Buffer.from(' HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
      ]),
    )
    expect(res.status).toBeGreaterThanOrEqual(200)
    if (res.status >= 400) expectEnvelope(res.status, res.body, 400)
  })

  it('a 70 KB URL', async () => {
    const res = await raw(`GET /search?keywords=${'a'.repeat(70_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
    expectEnvelope(res.status, res.body, 431)
  })
})

describe('landing page, health, help, covers', () => {
  it('GET / says what the server is, its library and the URL to paste; /health answers in the envelope', async () => {
    const page = await fetch(`${server.url}/`)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain(server.url)
    expect(html).toMatch(/Library: <strong>\d+<\/strong> songs/)
    const health = await json('/health')
    expect(health.body).toMatchObject({ code: 0, data: { status: 'ok' } })
    expect(health.body.data.songs).toBeGreaterThan(0)
  })

  it('--help is an option that lists every option', () => {
    expect(parseArgs(['--help']).help).toBe(true)
    for (const option of [
      '--host',
      '--port',
      '--data',
      '--demo',
      '--library',
      '--public-url',
      '--public-name',
      '--owner',
      '--owner-passphrase',
      '--log',
      '--help',
    ]) {
      expect(USAGE).toContain(option)
    }
    expect(() => parseArgs(['--owner-passphrase', 'short'])).toThrow(/at least 8/)
  })

  it('serves generated covers sandboxed and every image with nosniff', async () => {
    const res = await fetch(`${server.url}/media/cover/playlist/1`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('image/svg+xml')
    expect(res.headers.get('content-security-policy')).toContain('sandbox')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })
})

describe('play counts', () => {
  it('counts one play per signed media URL, however many range requests the player makes', async () => {
    const db = new DatabaseSync(join(dataDir, 'cadence.sqlite'), { readOnly: true })
    const plays = (id: number) =>
      (db.prepare('SELECT play_count AS n FROM songs WHERE id = ?').get(id) as { n: number }).n
    try {
      let id = 0
      let url = ''
      for (let candidate = 1; candidate <= 40 && !url; candidate++) {
        const detail = (await json(`/song/detail?id=${candidate}&br=128000`)).body.data
        if (detail?.meta?.url) [id, url] = [candidate, detail.meta.url as string]
      }
      expect(url).not.toBe('')
      const before = plays(id)
      for (const range of ['bytes=0-0', 'bytes=0-0', 'bytes=100-199', 'bytes=0-']) {
        const res = await fetch(url, { headers: { range } })
        expect(res.status).toBe(206)
        await res.arrayBuffer()
      }
      expect(plays(id)).toBe(before + 1)
    } finally {
      db.close()
    }
  })
})

describe('failures an operator must see', () => {
  it('logs a 500 with its request id even without --log, and answers the envelope without the stack', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cadence-security-500-'))
    const own = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir: dir, port: 0, demo: 5 })
    const written: string[] = []
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk))
      return true
    })
    try {
      // Break the database under the running server: searching needs the search keys table.
      const db = new DatabaseSync(join(dir, 'cadence.sqlite'))
      db.exec('DROP TABLE search_keys')
      db.close()
      const res = await fetch(`${own.url}/search?keywords=rain`)
      expect(res.status).toBe(500)
      const body = (await res.json()) as Envelope
      expect(body).toMatchObject({ code: -1, data: null })
      expect(body.message).not.toMatch(/search_keys|at .*\.ts/)
      const line = written.find((w) => w.includes(' 500 ['))
      expect(line).toMatch(/500 \[[^\]]+\] GET \/search\?keywords=rain: .*search_keys/)
    } finally {
      spy.mockRestore()
      await own.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('imported cover pictures', () => {
  it('serves a picture only as a raster image; one tagged image/svg+xml gets the generated, sandboxed cover', async () => {
    // What an imported file's embedded picture leaves in the images table (as library/import.ts stores it).
    const db = new DatabaseSync(join(dataDir, 'cadence.sqlite'))
    const [svgAlbum, pngAlbum] = (
      db.prepare("SELECT id FROM playlists WHERE kind = 'album' ORDER BY id LIMIT 2").all() as Array<{
        id: number
      }>
    ).map((r) => r.id)
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex')
    const insert = db.prepare('INSERT OR REPLACE INTO images (owner, mime, data) VALUES (?, ?, ?)')
    insert.run(
      `album:${svgAlbum}`,
      'image/svg+xml',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    )
    insert.run(`album:${pngAlbum}`, 'image/png', png)
    db.close()

    const hostile = await fetch(`${server.url}/media/cover/album/${svgAlbum}`)
    expect(hostile.status).toBe(200)
    expect(hostile.headers.get('content-type')).toContain('image/svg+xml')
    expect(hostile.headers.get('content-security-policy')).toContain('sandbox')
    expect(hostile.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await hostile.text()).not.toContain('<script>')

    const raster = await fetch(`${server.url}/media/cover/album/${pngAlbum}`)
    expect(raster.headers.get('content-type')).toBe('image/png')
    expect(raster.headers.get('x-content-type-options')).toBe('nosniff')
    expect(Buffer.from(await raster.arrayBuffer()).equals(png)).toBe(true)
  })
})
