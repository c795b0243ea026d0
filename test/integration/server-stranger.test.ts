import { spawn } from 'node:child_process'
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { connect, type Socket } from 'node:net'
import { DatabaseSync } from 'node:sqlite'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startDataSource, type DataSourceHandle, type DataSourceOptions } from '@server/index'
import { parseArgs, USAGE } from '@server/args'
import { phoneFormToken } from '@main/core/auth/builtin-signin'
import { OWNER_PASSPHRASE, confirmOnPhone } from '../support/phone'

/**
 * The home data source tried as a determined stranger would (issue 25): on the same network, behind a
 * proxy, or as another user of the same computer. Each test plays the attack and checks what it gets.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field below
type Envelope = { code: number; message: string; data: any }

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

/** A server of its own with a fresh data dir (removed after the test). */
async function serve(options: Partial<DataSourceOptions> = {}, dataDir?: string) {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'cadence-stranger-'))
  const server: DataSourceHandle = await startDataSource({
    ownerPassphrase: OWNER_PASSPHRASE,
    dataDir: dir,
    port: 0,
    demo: 20,
    ...options,
  })
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await server.close()
  }
  cleanups.push(async () => {
    await close()
    if (!dataDir) rmSync(dir, { recursive: true, force: true })
  })
  const json = async (path: string, init?: RequestInit) => {
    const res = await fetch(server.url + path, init)
    return { status: res.status, body: (await res.json()) as Envelope }
  }
  return { server, dir, url: server.url, json, close }
}

describe('signed media URLs', () => {
  it('refuses a signature with a character appended or its unused bits changed, and counts no play for it', async () => {
    const { dir, url, json } = await serve()
    let id = 0
    let media = ''
    for (let candidate = 1; candidate <= 20 && !media; candidate++) {
      const detail = (await json(`/song/detail?id=${candidate}&br=128000`)).body.data
      if (detail?.meta?.url) [id, media] = [candidate, detail.meta.url as string]
    }
    expect(media).toMatch(url)
    const db = new DatabaseSync(join(dir, 'cadence.sqlite'), { readOnly: true })
    cleanups.push(() => db.close())
    const plays = () =>
      (db.prepare('SELECT play_count AS n FROM songs WHERE id = ?').get(id) as { n: number }).n

    const genuine = await fetch(media, { headers: { range: 'bytes=0-0' } })
    expect(genuine.status).toBe(206)
    await genuine.arrayBuffer()
    const counted = plays()

    const sig = new URL(media).searchParams.get('sig')!
    // The last of 43 base64url characters carries 4 bits of the MAC and 2 unused ones.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const last = alphabet.indexOf(sig.at(-1)!)
    const sameBits = alphabet[last ^ 1]
    const forgeries = [`${sig}.`, `${sig}=`, `${sig}~`, `${sig}%20`, `${sig}!`, sig.slice(0, -1) + sameBits]
    for (const forged of forgeries) {
      const target = new URL(media)
      target.searchParams.delete('sig')
      const res = await fetch(`${target.href}&sig=${forged}`, { headers: { range: 'bytes=0-0' } })
      expect(res.status, forged).toBe(403)
      await res.arrayBuffer()
    }
    // A zero-padded expiry is the same number: not a new URL either.
    const padded = media.replace(/exp=(\d+)/, 'exp=0$1')
    const res = await fetch(padded, { headers: { range: 'bytes=0-0' } })
    expect(res.status).toBe(403)
    await res.arrayBuffer()
    expect(plays()).toBe(counted)
  })
})

/** The phone page of a new code: the desktop's key, the page's address and a form token from it. */
async function newCode(url: string, headers: Record<string, string> = {}) {
  const get = async (path: string) => ((await (await fetch(url + path, { headers })).json()) as Envelope).data
  const { unikey } = await get('/connect/qr/key')
  const { qrurl } = await get(`/connect/qr/create?key=${unikey}&qrimg=false`)
  const page = await (await fetch(qrurl, { headers })).text()
  const token = phoneFormToken(page)!
  return { unikey: unikey as string, qrurl: qrurl as string, token }
}

describe('guessing the owner passphrase', () => {
  it('hashes at most five of 60 wrong passphrases sent at once from one address', async () => {
    const { url } = await serve()
    const { unikey, qrurl, token } = await newCode(url)
    const target = new URL(qrurl)
    // 60 connections opened first, then every request written in the same turn: "at once".
    const sockets = await Promise.all(
      Array.from(
        { length: 60 },
        () =>
          new Promise<Socket>((resolve) => {
            const socket = connect(Number(target.port), target.hostname, () => resolve(socket))
          }),
      ),
    )
    const answers = await Promise.all(
      sockets.map((socket, i) => {
        const body = new URLSearchParams({
          action: 'confirm',
          token,
          passphrase: `guess number ${i}`,
        }).toString()
        return new Promise<string>((resolve) => {
          let text = ''
          socket.on('data', (chunk) => (text += chunk.toString('utf8')))
          socket.on('close', () => resolve(text))
          socket.write(
            `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n` +
              `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
          )
        })
      }),
    )
    // A passphrase hashed and found wrong says so; a 429 was refused before any hashing.
    const hashed = answers.filter((a) => a.includes('That passphrase is not right')).length
    const refused = answers.filter((a) => a.startsWith('HTTP/1.1 429')).length
    expect(hashed).toBeGreaterThan(0)
    expect(hashed).toBeLessThanOrEqual(5)
    expect(refused).toBeGreaterThan(0)
    const check = (await (await fetch(`${url}/connect/qr/check?key=${unikey}`)).json()) as Envelope
    expect(check.data).toEqual({ status: 1, cookie: '' })
  })
})

describe('whoever sees the QR code', () => {
  it('cannot poll with what the code carries: the credential goes to the client that asked for the key', async () => {
    const { url } = await serve()
    const { unikey, qrurl } = await newCode(url)
    // Everything in the code (a screen share, a photo, a log line): the URL and each part of it.
    const seen = new URL(qrurl)
    const parts = [...seen.pathname.split('/').filter(Boolean), ...seen.searchParams.values(), qrurl]
    const spy = async () => {
      const answers = []
      for (const part of parts) {
        const res = await fetch(`${url}/connect/qr/check?key=${encodeURIComponent(part)}`)
        answers.push(((await res.json()) as Envelope).data)
      }
      return answers
    }
    for (const answer of await spy()) expect(answer?.cookie ?? '').toBe('')

    // The owner confirms on the phone; the onlooker polls first, then the desktop.
    expect((await confirmOnPhone(qrurl)).status).toBe(200)
    for (const answer of await spy()) expect(answer?.cookie ?? '').toBe('')
    const desktop = (await (await fetch(`${url}/connect/qr/check?key=${unikey}`)).json()) as Envelope
    expect(desktop.data.status).toBe(2)
    const status = await fetch(`${url}/connect/status`, { headers: { Token: desktop.data.cookie } })
    expect(status.status).toBe(200)
  })

  it('cannot open the phone page with the key the desktop polls with', async () => {
    const { url } = await serve()
    const { unikey } = await newCode(url)
    const page = await fetch(`${url}/connect/qr/phone/${unikey}`)
    expect(page.status).toBe(410)
    expect(await page.text()).not.toContain('name="token"')
  })
})

describe('a changed owner passphrase', () => {
  /** Signs the owner in on a phone that is remembered: its cookie and the desktop's credential. */
  async function signIn(url: string, passphrase: string) {
    const { unikey, qrurl } = await newCode(url)
    const confirmed = await confirmOnPhone(qrurl, { passphrase })
    expect(confirmed.status).toBe(200)
    const phone = confirmed.headers.get('set-cookie')!.split(';')[0]
    const check = (await (await fetch(`${url}/connect/qr/check?key=${unikey}`)).json()) as Envelope
    return { phone, credential: check.data.cookie as string }
  }
  const statusOf = (url: string, credential: string) =>
    fetch(`${url}/connect/status`, { headers: { Token: credential } }).then((r) => r.status)

  it('forgets remembered phones and signs every device out after a restart with a new one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cadence-stranger-change-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const first = await serve({ ownerPassphrase: 'the old passphrase' }, dir)
    const old = await signIn(first.url, 'the old passphrase')
    expect(await statusOf(first.url, old.credential)).toBe(200)
    await first.close()

    // The same passphrase again: nothing is forgotten.
    const same = await serve({ ownerPassphrase: 'the old passphrase' }, dir)
    expect(await statusOf(same.url, old.credential)).toBe(200)
    await same.close()

    const changed = await serve({ ownerPassphrase: 'a brand new passphrase' }, dir)
    // At once after the start: the credential issued before is gone…
    expect(await statusOf(changed.url, old.credential)).toBe(401)
    // …and the phone remembered under the old passphrase confirms nothing.
    const { unikey, qrurl } = await newCode(changed.url, { cookie: old.phone })
    const page = await (await fetch(qrurl, { headers: { cookie: old.phone } })).text()
    expect(page).toContain('name="passphrase"')
    expect((await confirmOnPhone(qrurl, { cookie: old.phone, passphrase: null })).status).toBe(403)
    expect((await confirmOnPhone(qrurl, { passphrase: 'the old passphrase' })).status).toBe(403)
    const check = (await (await fetch(`${changed.url}/connect/qr/check?key=${unikey}`)).json()) as Envelope
    expect(check.data.cookie).toBe('')
    // The new passphrase works.
    const fresh = await signIn(changed.url, 'a brand new passphrase')
    expect(await statusOf(changed.url, fresh.credential)).toBe(200)
  })

  it('signs every device out when started with signOutEverywhere, keeping the passphrase', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cadence-stranger-signout-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const first = await serve({}, dir)
    const old = await signIn(first.url, OWNER_PASSPHRASE)
    await first.close()
    const again = await serve({ signOutEverywhere: true, ownerPassphrase: undefined }, dir)
    expect(await statusOf(again.url, old.credential)).toBe(401)
    const { qrurl } = await newCode(again.url)
    expect((await confirmOnPhone(qrurl, { cookie: old.phone, passphrase: null })).status).toBe(403)
    expect((await signIn(again.url, OWNER_PASSPHRASE)).credential).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })
})

describe('signing out', () => {
  async function signIn(url: string) {
    const { unikey, qrurl } = await newCode(url)
    expect((await confirmOnPhone(qrurl)).status).toBe(200)
    const check = (await (await fetch(`${url}/connect/qr/check?key=${unikey}`)).json()) as Envelope
    return check.data.cookie as string
  }
  const statusOf = (url: string, credential: string) =>
    fetch(`${url}/connect/status`, { headers: { Token: credential } }).then((r) => r.status)

  it('POST /connect/logout revokes the credential it carries, and only that one', async () => {
    const { url, json } = await serve()
    const laptop = await signIn(url)
    const desktop = await signIn(url)
    const out = await json('/connect/logout', { method: 'POST', headers: { Token: `Bearer ${laptop}` } })
    expect(out).toMatchObject({ status: 200, body: { code: 0 } })
    // Someone who kept a copy of the logged-out credential gets nothing with it.
    expect(await statusOf(url, laptop)).toBe(401)
    expect((await json('/connect/logout', { method: 'POST', headers: { Token: laptop } })).status).toBe(401)
    expect(await statusOf(url, desktop)).toBe(200)
    expect((await json('/connect/logout', { method: 'GET', headers: { Token: desktop } })).status).toBe(405)
    expect(await statusOf(url, desktop)).toBe(200)
  })

  it('POST /connect/logout?all=true signs every device of that user out', async () => {
    const { url, json } = await serve()
    const credentials = [await signIn(url), await signIn(url), await signIn(url)]
    const out = await json('/connect/logout?all=true', { method: 'POST', headers: { Token: credentials[0] } })
    expect(out.body.code).toBe(0)
    for (const credential of credentials) expect(await statusOf(url, credential)).toBe(401)
  })
})

/** A request from a given local address (127.0.0.2 is this machine too, seen as another client). */
function requestFrom(
  localAddress: string,
  target: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      target,
      { method: options.method ?? 'GET', headers: options.headers, localAddress },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

describe('behind a reverse proxy', () => {
  const form = (token: string, passphrase: string) =>
    new URLSearchParams({ action: 'confirm', token, passphrase }).toString()
  const formHeaders = (forwardedFor: string) => ({
    'content-type': 'application/x-www-form-urlencoded',
    'x-forwarded-for': forwardedFor,
  })

  it('limits each client behind a trusted proxy by its own address, so a stranger cannot lock the owner out', async () => {
    // The proxy is on this machine (127.0.0.1) and forwards strangers and the owner alike.
    const { url } = await serve({ trustProxy: ['127.0.0.1'] })
    const { unikey, qrurl } = await newCode(url)
    const attempt = async (forwardedFor: string, passphrase: string) => {
      const token = phoneFormToken(await (await fetch(qrurl)).text())!
      const res = await fetch(qrurl, {
        method: 'POST',
        headers: formHeaders(forwardedFor),
        body: form(token, passphrase),
      })
      await res.arrayBuffer()
      return res.status
    }
    for (let i = 0; i < 5; i++) expect(await attempt('203.0.113.7', `wrong ${i}`)).toBe(403)
    expect(await attempt('203.0.113.7', 'wrong 5')).toBe(429)
    expect(await attempt('192.168.1.10', OWNER_PASSPHRASE)).toBe(200)
    const check = (await (await fetch(`${url}/connect/qr/check?key=${unikey}`)).json()) as Envelope
    expect(check.data.status).toBe(2)
  })

  it('believes X-Forwarded-For only from the proxies it was told to trust', async () => {
    const { url } = await serve({ trustProxy: ['127.0.0.1'] })
    const { qrurl } = await newCode(url)
    // A stranger talking to the server directly (127.0.0.2) invents a new address for every guess.
    const guess = async (i: number) => {
      const page = await (await fetch(qrurl)).text()
      return requestFrom('127.0.0.2', qrurl, {
        method: 'POST',
        headers: formHeaders(`198.51.100.${i}`),
        body: form(phoneFormToken(page)!, `wrong ${i}`),
      })
    }
    const answers = []
    for (let i = 0; i < 7; i++) answers.push(await guess(i))
    expect(answers).toEqual([403, 403, 403, 403, 403, 429, 429])
  })
})

describe('--trust-proxy', () => {
  it('takes addresses and CIDR ranges, repeated or comma-separated, and refuses anything else', () => {
    expect(parseArgs(['--trust-proxy', '127.0.0.1', '--trust-proxy=10.0.0.0/8,::1']).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
    ])
    for (const bad of ['proxy.lan', '10.0.0.0/33', '*', '', '10.0.0.1/8/2']) {
      expect(() => parseArgs(['--trust-proxy', bad]), bad).toThrow(/--trust-proxy/)
    }
    expect(USAGE).toContain('--trust-proxy')
  })

  it('has the other options of issue 25 on the command line too', () => {
    expect(parseArgs(['--sign-out-everywhere', '--anonymous-audio-mb', '16'])).toMatchObject({
      signOutEverywhere: true,
      anonymousAudioBytes: 16 * 1024 * 1024,
    })
    for (const option of ['--sign-out-everywhere', '--anonymous-audio-mb']) expect(USAGE).toContain(option)
  })
})

/**
 * A raw connection that sends `head`, then one byte of `trickle` every `everyMs` until the server closes
 * it. Resolves with what the server answered (its status line, or '' when it just closed) and how many
 * bytes of the trickle were sent before that.
 */
function trickle(url: string, head: string, body: string, everyMs: number) {
  const { hostname, port } = new URL(url)
  return new Promise<{ answer: string; sent: number }>((resolve, reject) => {
    let sent = 0
    let answer = ''
    const socket = connect(Number(port), hostname, () => {
      socket.write(head)
      const timer = setInterval(() => {
        if (sent >= body.length || socket.destroyed) return clearInterval(timer)
        socket.write(body[sent++])
      }, everyMs)
      socket.on('close', () => {
        clearInterval(timer)
        resolve({ answer, sent })
      })
    })
    socket.on('data', (chunk) => (answer ||= chunk.toString('latin1').split('\r\n')[0]))
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error)
    })
  })
}

describe('slow requests', () => {
  const timeouts = { headersMs: 1000, requestMs: 2000, idleMs: 2000, keepAliveMs: 1000 }

  it('cuts off a body that trickles in, headers that trickle in, and a connection left idle', async () => {
    const { url } = await serve({ timeouts })
    const host = new URL(url).host
    // 60 bytes at one every 300 ms would take 18 s; the request timeout ends it first.
    const body = await trickle(
      url,
      `POST /connect/logout HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n`,
      `{"all":${' '.repeat(52)}}`,
      300,
    )
    expect(body.answer).toBe('HTTP/1.1 408 Request Timeout')
    expect(body.sent).toBeLessThan(60)

    const headers = await trickle(
      url,
      `GET /health HTTP/1.1\r\nHost: ${host}\r\n`,
      'X-Slow: ' + 'a'.repeat(52),
      300,
    )
    expect(headers.answer).toBe('HTTP/1.1 408 Request Timeout')
    expect(headers.sent).toBeLessThan(60)

    // A kept-alive connection after its answer: closed once idle, not held for the next request.
    const idle = await trickle(url, `GET /health HTTP/1.1\r\nHost: ${host}\r\n\r\n`, '', 300)
    expect(idle.answer).toBe('HTTP/1.1 200 OK')
  })

  it('ends answers their client stopped reading, once the connection has been silent', async () => {
    // A lossless file made first (synthesis takes longer than this test's idle timeout), then served.
    const dir = mkdtempSync(join(tmpdir(), 'cadence-stranger-stall-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const maker = await serve({}, dir)
    let id = 0
    for (let candidate = 1; candidate <= 20 && !id; candidate++) {
      if ((await maker.json(`/song/detail?id=${candidate}&br=1411200`)).body.data?.meta?.url) id = candidate
    }
    await maker.close()
    const { json } = await serve({ timeouts }, dir)
    const meta = (await json(`/song/detail?id=${id}&br=1411200`)).body.data.meta
    const [media, size] = [meta.url as string, meta.size as number]
    const target = new URL(media)
    // Forty answers asked for at once (pipelined), 60 MB or more: more than the socket buffers hold
    // (loopback may buffer 32 MB on the receiving side), so they stall.
    const asked = 40
    const request = `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n\r\n`
    const received = await new Promise<number>((resolve, reject) => {
      let received = 0
      const socket = connect(Number(target.port), target.hostname, () => socket.write(request.repeat(asked)))
      socket.once('data', () => {
        // The attack: stop reading, then take what is left. Node lets a write that is still moving
        // run one more idle period, so the pause outlasts two.
        socket.pause()
        setTimeout(() => socket.resume(), 2 * timeouts.idleMs + 2000)
      })
      socket.on('data', (chunk) => {
        received += chunk.length
        if (received >= asked * size) socket.end()
      })
      socket.on('close', () => resolve(received))
      socket.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ECONNRESET') reject(error)
      })
    })
    expect(size).toBeGreaterThan(1_000_000)
    expect(received).toBeGreaterThan(0)
    expect(received).toBeLessThan(asked * size)
  })

  it('keeps at most 64 connections from one address, with the default timeouts, and answers another client meanwhile', async () => {
    const { url } = await serve()
    const { hostname, port } = new URL(url)
    const closedBy: Array<'server-at-once' | 'server-later'> = []
    const sockets = await Promise.all(
      Array.from(
        { length: 200 },
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect(Number(port), hostname, () => resolve(socket))
            socket.on('error', (error: NodeJS.ErrnoException) => {
              if (error.code !== 'ECONNRESET') reject(error)
            })
          }),
      ),
    )
    expect(sockets).toHaveLength(200)
    // Another client, on another address, is answered while they sit there.
    expect(await requestFrom('127.0.0.2', `${url}/health`)).toBe(200)
    // Every idle connection ends, and the server says which: dropped at once, or timed out waiting for headers.
    await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<void>((resolve) => {
            let answered = false
            socket.on('data', () => (answered = true))
            const done = () => {
              closedBy.push(answered ? 'server-later' : 'server-at-once')
              resolve()
            }
            if (socket.destroyed || socket.readyState === 'closed') done()
            else socket.on('close', done)
          }),
      ),
    )
    const kept = closedBy.filter((c) => c === 'server-later').length
    expect(kept).toBeLessThanOrEqual(64)
    expect(kept).toBeGreaterThan(0)
  }, 40_000)
})

/** Every file and folder under `dir` with its permission bits. */
function modes(dir: string): Array<{ path: string; mode: string; folder: boolean }> {
  const found: Array<{ path: string; mode: string; folder: boolean }> = []
  const walk = (path: string) => {
    const st = lstatSync(path)
    found.push({
      path: path.slice(dir.length) || '/',
      mode: (st.mode & 0o777).toString(8),
      folder: st.isDirectory(),
    })
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name))
  }
  walk(dir)
  return found
}

describe('other users of the same computer', () => {
  /** The data source started the way a person starts it, from a shell whose umask is 022. */
  async function startWithUmask022(dataDir: string) {
    const child = spawn(
      '/bin/sh',
      [
        '-c',
        'umask 022 && exec "$@"',
        'sh',
        process.execPath,
        '--import',
        'tsx',
        'server/cli.ts',
        ...['--port', '0', '--data', dataDir, '--demo', '20', '--owner-passphrase', OWNER_PASSPHRASE],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        const m = /Listening on (http:\/\/\S+)/.exec(out)
        if (m) resolve(m[1])
      })
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)))
    })
    const stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.on('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
    cleanups.push(stop)
    return { url, stop }
  }

  it('keeps every file in the data dir 0600 and every folder 0700, under a umask of 022', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'cadence-stranger-umask-')), 'data')
    cleanups.push(() => rmSync(dirname(dir), { recursive: true, force: true }))
    const expectPrivate = () => {
      const found = modes(dir)
      const names = found.map((f) => f.path)
      // The database with its WAL and shared memory, the media secret, made audio.
      for (const name of [
        '/cadence.sqlite',
        '/cadence.sqlite-wal',
        '/cadence.sqlite-shm',
        '/secret.key',
        '/audio',
      ]) {
        expect(names).toContain(name)
      }
      expect(names.some((n) => n.endsWith('.wav'))).toBe(true)
      for (const f of found) expect(`${f.path} ${f.mode}`).toBe(`${f.path} ${f.folder ? '700' : '600'}`)
    }
    const play = async (url: string) => {
      for (let id = 1; id <= 20; id++) {
        const detail = (await (await fetch(`${url}/song/detail?id=${id}&br=128000`)).json()) as Envelope
        if (detail.data?.meta?.url) return
      }
    }
    const first = await startWithUmask022(dir)
    await play(first.url)
    expectPrivate()
    await first.stop()

    // A data dir an earlier version left readable by everyone is made private on the next start.
    for (const f of modes(dir)) chmodSync(join(dir, f.path), f.folder ? 0o755 : 0o644)
    const second = await startWithUmask022(dir)
    await play(second.url)
    expectPrivate()
    await second.stop()
  }, 60_000)
})

/** Bytes of every file under `dir`. */
function bytesUnder(dir: string): number {
  return modes(dir)
    .filter((f) => !f.folder)
    .reduce((sum, f) => sum + statSync(join(dir, f.path)).size, 0)
}

describe('anonymous disk use', () => {
  it('writes at most 64 MB for 600 anonymous /song/detail and media requests, and still plays for a signed-in listener', async () => {
    const { dir, url, json } = await serve({ demo: 300 })
    const before = bytesUnder(dir)
    const statuses: number[] = []
    let played = 0
    let refused = 0
    for (let id = 1; id <= 300; id++) {
      const detail = await json(`/song/detail?id=${id}`)
      statuses.push(detail.status)
      const media = detail.body.data?.meta?.url as string | undefined
      if (!media) {
        if (/sign in/i.test(detail.body.data?.privilege?.reason ?? '')) refused++
        continue
      }
      const res = await fetch(media)
      statuses.push(res.status)
      await res.arrayBuffer()
      if (res.status === 200) played++
    }
    const written = bytesUnder(dir) - before
    expect(statuses.every((s) => s === 200)).toBe(true)
    // Everything in the data dir: audio (at most 48 MB) and the database with its journal.
    expect(written).toBeLessThanOrEqual(64 * 1024 * 1024)
    expect(bytesUnder(join(dir, 'audio'))).toBeLessThanOrEqual(48 * 1024 * 1024)
    // Anonymous listeners still play, up to the bound; past it they are asked to sign in.
    expect(played).toBeGreaterThan(10)
    expect(refused).toBeGreaterThan(0)

    // The owner, signed in, still gets a song nobody has asked for yet.
    const { unikey, qrurl } = await newCode(url)
    expect((await confirmOnPhone(qrurl)).status).toBe(200)
    const credential = (await json(`/connect/qr/check?key=${unikey}`)).body.data.cookie as string
    let ownerUrl = ''
    for (let id = 300; id > 0 && !ownerUrl; id--) {
      const anonymous = await json(`/song/detail?id=${id}`)
      if (anonymous.body.data?.meta?.url || !anonymous.body.data?.privilege?.reason?.match(/sign in/i))
        continue
      const mine = await json(`/song/detail?id=${id}`, { headers: { Token: credential } })
      ownerUrl = mine.body.data.meta.url
    }
    const audio = await fetch(ownerUrl)
    expect(audio.status).toBe(200)
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(0)
  }, 120_000)

  it('holds the bound for requests sent at once, and for a URL with its anonymous mark taken off', async () => {
    const bound = 4 * 1024 * 1024
    const { dir, json } = await serve({ demo: 300, anonymousAudioBytes: bound })
    // Two bursts of 50 at once (fewer than the 64 connections one address may open).
    const burst = (from: number) =>
      Promise.all(Array.from({ length: 50 }, (_, i) => json(`/song/detail?id=${from + i}&br=1411200`)))
    const details = [...(await burst(1)), ...(await burst(51))]
    expect(details.every((d) => d.status === 200)).toBe(true)
    expect(bytesUnder(join(dir, 'audio'))).toBeLessThanOrEqual(bound)
    const media = details.map((d) => d.body.data?.meta?.url as string | undefined).find(Boolean)!
    expect(media).toContain('anon=1')
    for (const forged of [media.replace('&anon=1', ''), media.replace('anon=1', 'anon=0')]) {
      const res = await fetch(forged, { headers: { range: 'bytes=0-0' } })
      expect(res.status).toBe(403)
      await res.arrayBuffer()
    }
  })
})
