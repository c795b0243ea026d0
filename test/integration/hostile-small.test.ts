import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, request, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { BuiltinLaunch, ConfirmPort } from '@main/core'
import { startDataSource, type DataSourceHandle } from '@server/index'
import type { IpcResult, PhoneAccess } from '@shared/ipc/contract'
import { RENEW_PASSPHRASE_REQUEST } from '@main/core/sources/handlers'
import { LOGIN_REQUIRED } from '@server/envelope'
import { createTestCore } from '../support/test-core'
import { OWNER_PASSPHRASE, confirmOnPhone } from '../support/phone'

/**
 * Issue 33, item 7: smaller defences against a hostile party, each as that party acts. 127.0.0.2 stands
 * for another machine on the user's network (Linux routes all of 127.0.0.0/8 to loopback).
 */

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}
/** A GET sent from `from` (the client's own address), with `headers`. */
function get(
  url: string,
  options: { from?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress: options.from, headers: options.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field below
const data = async (answer: Promise<Answer>): Promise<any> =>
  (JSON.parse((await answer).body) as { data: unknown }).data

const dirs: string[] = []
async function server(
  options: Partial<Parameters<typeof startDataSource>[0]> = {},
): Promise<DataSourceHandle> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cadence-hostile-small-'))
  dirs.push(dataDir)
  return startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 5, ...options })
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('the cover route (item 7g)', () => {
  let source: DataSourceHandle
  beforeAll(async () => {
    source = await server()
  })
  afterAll(() => source.close())

  it('gives no web page CORS approval to read a cover', async () => {
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1:1']) {
      const answer = await get(`${source.url}/media/cover/album/1`, { headers: { origin } })
      expect(answer.status).toBe(200)
      expect(answer.body.length).toBeGreaterThan(0)
      expect(answer.headers['access-control-allow-origin']).toBeUndefined()
    }
  })
})

describe('QR keys (item 7h)', () => {
  let source: DataSourceHandle
  beforeAll(async () => {
    source = await server({ host: '0.0.0.0', trustProxy: ['127.0.0.3'] })
  })
  afterAll(() => source.close())
  const port = () => new URL(source.url).port

  it('hands the credential only to the address that asked for the key; another address sees it as unknown', async () => {
    const base = `http://127.0.0.1:${port()}`
    const { unikey } = await data(get(`${base}/connect/qr/key`, { from: '127.0.0.1' }))
    // The key read from a log on another machine: it cannot make the code, nor poll.
    expect(
      (await get(`${base}/connect/qr/create?key=${unikey}&qrimg=false`, { from: '127.0.0.2' })).status,
    ).toBe(404)
    const { qrurl } = await data(
      get(`${base}/connect/qr/create?key=${unikey}&qrimg=false`, { from: '127.0.0.1' }),
    )
    expect((await confirmOnPhone(qrurl)).status).toBeLessThan(400)
    for (let i = 0; i < 3; i++) {
      expect(await data(get(`${base}/connect/qr/check?key=${unikey}`, { from: '127.0.0.2' }))).toMatchObject({
        status: -1,
        cookie: '',
      })
    }
    // Its own client still collects it, once.
    const mine = await data(get(`${base}/connect/qr/check?key=${unikey}`, { from: '127.0.0.1' }))
    expect(mine.status).toBe(2)
    expect(mine.cookie.length).toBeGreaterThan(0)
    expect(await data(get(`${base}/connect/qr/check?key=${unikey}`, { from: '127.0.0.1' }))).toMatchObject({
      status: -1,
    })
  })

  it('behind a trusted proxy, binds the key to the address the proxy forwards', async () => {
    const base = `http://127.0.0.3:${port()}`
    const via = (client: string) => ({ from: '127.0.0.3', headers: { 'x-forwarded-for': client } })
    const { unikey } = await data(get(`${base}/connect/qr/key`, via('10.0.0.5')))
    const { qrurl } = await data(get(`${base}/connect/qr/create?key=${unikey}&qrimg=false`, via('10.0.0.5')))
    expect((await confirmOnPhone(qrurl.replace(/^http:\/\/[^/]+/, base))).status).toBeLessThan(400)
    expect(await data(get(`${base}/connect/qr/check?key=${unikey}`, via('10.0.0.6')))).toMatchObject({
      status: -1,
      cookie: '',
    })
    const mine = await data(get(`${base}/connect/qr/check?key=${unikey}`, via('10.0.0.5')))
    expect(mine.status).toBe(2)
    expect(mine.cookie.length).toBeGreaterThan(0)
  })
})

/** A process that took a port: answers every request with a plausible envelope and writes down what came. */
async function impostor(port: number): Promise<{ server: Server; seen: { path: string; token?: string }[] }> {
  const seen: { path: string; token?: string }[] = []
  const server = createServer((req, res) => {
    const token = req.headers.token
    seen.push({ path: req.url ?? '', token: Array.isArray(token) ? token[0] : token })
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ code: 200, message: 'ok', data: { proof: 'trust me', playlists: [] } }))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  return { server, seen }
}

describe('the built-in source after its process exits (item 7d)', () => {
  const cleanups: Array<() => unknown> = []
  afterEach(async () => {
    for (const step of cleanups.splice(0).reverse()) await step()
  })
  const APP = { senderUrl: 'app://cadence/index.html' }

  it('forgets the old address at once and sends the credential only to a restarted process that proves it is ours', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cadence-hostile-restart-'))
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
    const launches: BuiltinLaunch[] = []
    const exits: Array<(code: number) => void> = []
    const handles: DataSourceHandle[] = []
    /** Where the next start says it listens instead of starting (the restarted process's port taken). */
    const lies: string[] = []
    const core = createTestCore({
      appInfo: { name: 'Cadence', version: '0', platform: 'linux' },
      // The utility process, in-process: the real server with the options (and nonce) the core chose.
      spawnBuiltin: async (launch, onExit) => {
        launches.push(launch)
        exits.push(onExit)
        const lie = lies.shift()
        if (lie) return { url: lie, stop: async () => {} }
        const handle = await startDataSource({
          dataDir,
          host: launch.host,
          port: launch.port,
          ownerPassphrase: launch.passphrase,
          instanceNonce: launch.nonce,
          requireLogin: launch.requireLogin,
          demo: 5,
        })
        handles.push(handle)
        return { url: handle.url, stop: () => handle.close() }
      },
    })
    cleanups.push(() => core.dispose())
    cleanups.push(() => core.builtin.stop())
    await core.builtin.start()
    expect(await core.start()).toMatchObject({ status: 'signed-in' })
    const oldUrl = core.sources.get('builtin')!.url
    expect(oldUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)

    // Our process dies (main hears of it), and another process takes its port before the restart.
    lies.push(`http://127.0.0.1:${new URL(oldUrl).port}`)
    await handles[0].close()
    exits[0](1)
    const squatter = await impostor(Number(new URL(oldUrl).port))
    cleanups.push(() => new Promise((resolve) => squatter.server.close(resolve)))
    expect(core.sources.get('builtin')).toMatchObject({ url: '', state: 'reconnecting' })
    const answer = (await core.router.invoke('catalog:recommend-playlists', undefined, APP)) as IpcResult
    expect(answer.ok).toBe(false)

    // The restart reports the squatter's address: it is asked to prove itself, fails, and gets nothing.
    await vi.waitFor(() => expect(launches.length).toBeGreaterThanOrEqual(3), { timeout: 30_000 })
    await vi.waitFor(() => expect(core.sources.get('builtin')?.state).toBe('ready'), { timeout: 30_000 })
    const newUrl = core.sources.get('builtin')!.url
    expect(newUrl).not.toBe(oldUrl)
    expect(new Set(launches.map((l) => l.nonce)).size).toBe(launches.length)
    expect(await core.start()).toMatchObject({ status: 'signed-in' })
    // (A request in flight when the process died may still arrive there on its retry: without the credential.)
    expect(squatter.seen.map((r) => r.path.split('?')[0])).toContain('/cadence/instance')
    expect(squatter.seen.filter((r) => r.token !== undefined)).toEqual([])
  })

  it('answers /cadence/instance only when started with a nonce, and only with a signature, never the nonce', async () => {
    const plain = await server()
    cleanups.push(() => plain.close())
    expect((await get(`${plain.url}/cadence/instance?challenge=abc`)).status).toBe(404)
    const nonce = 'n'.repeat(43)
    const ours = await server({ instanceNonce: nonce })
    cleanups.push(() => ours.close())
    const answer = await get(`${ours.url}/cadence/instance?challenge=abc`)
    expect(answer.status).toBe(200)
    expect(answer.body).not.toContain(nonce)
  })
})

/**
 * A core whose built-in source is a real reference server started in this process, as the glue's utility
 * process would be (host, port, passphrase, nonce, --require-login), the network's address 127.0.0.2, and
 * `confirm` answering main's dialogs. Stopped and removed by `cleanups`.
 */
function coreWithBuiltin(cleanups: Array<() => unknown>, prefix: string, confirm: ConfirmPort) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix))
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  const launches: BuiltinLaunch[] = []
  const core = createTestCore({
    appInfo: { name: 'Cadence', version: '0', platform: 'linux' },
    spawnBuiltin: async (launch) => {
      launches.push(launch)
      const handle = await startDataSource({
        dataDir,
        host: launch.host,
        port: launch.port,
        ownerPassphrase: launch.passphrase,
        instanceNonce: launch.nonce,
        requireLogin: launch.requireLogin,
        demo: 5,
      })
      return { url: handle.url, stop: () => handle.close() }
    },
    networkAddresses: () => ['127.0.0.2'],
    confirm,
  })
  cleanups.push(() => core.dispose())
  cleanups.push(() => core.builtin.stop())
  return { core, launches }
}

describe('the built-in source open to the network (item 7c)', () => {
  const cleanups: Array<() => unknown> = []
  afterEach(async () => {
    for (const step of cleanups.splice(0).reverse()) await step()
  })
  const APP = { senderUrl: 'app://cadence/index.html' }

  it('lists, searches and streams nothing for a stranger without a login, while the app browses and plays', async () => {
    const { core, launches } = coreWithBuiltin(cleanups, 'cadence-hostile-network-', async () => true)
    await core.builtin.start()
    expect(await core.start()).toMatchObject({ status: 'signed-in' })
    // On loopback anyone on this computer browses, as the spec allows; a media URL handed out so says so.
    const loopback = core.sources.get('builtin')!.url
    const anonymous = await data(get(`${loopback}/song/detail?id=1`))
    const anonymousMedia = new URL(anonymous.meta.url as string)
    expect(anonymousMedia.searchParams.get('anon')).toBe('1')

    const on = (await core.router.invoke('settings:update', { phoneSignIn: true }, APP)) as IpcResult
    expect(on.ok).toBe(true)
    await vi.waitFor(() => expect(launches).toHaveLength(2), { timeout: 30_000 })
    await vi.waitFor(() => expect(core.sources.get('builtin')?.state).toBe('ready'), { timeout: 30_000 })
    const port = new URL(core.sources.get('builtin')!.url).port
    const stranger = `http://127.0.0.2:${port}`

    const closed = [
      '/playlist/recommend',
      '/playlist/toplist',
      '/playlist/detail?id=1',
      '/playlist/list?uid=1',
      '/song/recommend',
      '/song/detail?id=1',
      '/artist/recommend',
      '/artist/detail?id=1',
      '/search?keywords=a',
      anonymousMedia.pathname + anonymousMedia.search,
    ]
    for (const path of closed) {
      const answer = await get(stranger + path, { from: '127.0.0.2' })
      expect(answer.status, path).toBe(401)
      expect(JSON.parse(answer.body), path).toMatchObject({ code: -1, message: LOGIN_REQUIRED, data: null })
    }
    // What signing in needs, and covers, stay open.
    for (const path of ['/health', '/connect/qr/key', '/media/cover/album/1']) {
      expect((await get(stranger + path, { from: '127.0.0.2' })).status, path).toBe(200)
    }

    // The app, signed in again by itself (the network start's passphrase revoked its credential), still
    // lists and plays (its media fetched by main, with a signed URL).
    await vi.waitFor(
      async () => {
        const lists = (await core.router.invoke('catalog:recommend-playlists', undefined, APP)) as IpcResult<
          unknown[]
        >
        expect(lists.ok && lists.value.length).toBeGreaterThan(0)
      },
      { timeout: 20_000 },
    )
    const song = (await core.router.invoke('player:resolve', { id: 1, br: 128000 }, APP)) as IpcResult<{
      meta?: { url?: string }
    }>
    expect(song.ok).toBe(true)
    const url = song.ok ? song.value.meta?.url : undefined
    const media = await core.media(new Request(url!, { headers: { Range: 'bytes=0-43' } }))
    expect(media.status).toBe(206)
    expect((await media.arrayBuffer()).byteLength).toBe(44)
  })
})

describe('the phone passphrase (item 7b)', () => {
  const cleanups: Array<() => unknown> = []
  afterEach(async () => {
    for (const step of cleanups.splice(0).reverse()) await step()
  })
  const APP = { senderUrl: 'app://cadence/index.html' }

  it('is answered only to a call made for "Show", never in events, and renewed after main asks: the old one and remembered phones stop working', async () => {
    const answers: boolean[] = []
    const asked: string[] = []
    const { core, launches } = coreWithBuiltin(
      cleanups,
      'cadence-hostile-renew-',
      async (request) => (asked.push(request.title), answers.shift() ?? false),
    )
    const pushed: string[] = []
    core.events.subscribe((event, payload) => void pushed.push(`${event} ${JSON.stringify(payload)}`))
    const call = async <T>(channel: string, args?: unknown): Promise<T> => {
      const result = (await core.router.invoke(channel, args, APP)) as IpcResult
      if (!result.ok) throw new Error(`${channel}: ${result.error.message}`)
      return result.value as T
    }
    const ready = async (count: number) => {
      await vi.waitFor(() => expect(launches).toHaveLength(count), { timeout: 30_000 })
      await vi.waitFor(() => expect(core.sources.get('builtin')?.state).toBe('ready'), { timeout: 30_000 })
    }
    await core.builtin.start()
    answers.push(true)
    await call('settings:update', { phoneSignIn: true })
    await ready(2)
    const address = `http://127.0.0.2:${new URL(core.sources.get('builtin')!.url).port}`

    // Without "Show" no answer carries it.
    const plain = await call<PhoneAccess>('sources:phone-access')
    expect(plain).toMatchObject({ enabled: true, listening: true })
    expect(plain.passphrase).toBeUndefined()
    const first = (await call<PhoneAccess>('sources:phone-access', { show: true })).passphrase!
    expect(first).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/)
    expect(JSON.stringify(await call('settings:get'))).not.toContain(first)
    expect(JSON.stringify(await call('sources:list'))).not.toContain(first)

    /** A phone on the network confirms a new key; answers the confirmation and the device's credential. */
    const phone = async (options: { passphrase: string | null; cookie?: string }) => {
      const { unikey } = await data(get(`${address}/connect/qr/key`, { from: '127.0.0.2' }))
      const { qrurl } = await data(
        get(`${address}/connect/qr/create?key=${unikey}&qrimg=false`, { from: '127.0.0.2' }),
      )
      const confirmed = await confirmOnPhone(qrurl, options)
      const check = await data(get(`${address}/connect/qr/check?key=${unikey}`, { from: '127.0.0.2' }))
      return { confirmed, credential: check.cookie as string }
    }
    const signedIn = await phone({ passphrase: first })
    expect(signedIn.credential.length).toBeGreaterThan(0)
    const remembered = signedIn.confirmed.headers.get('set-cookie')!.split(';')[0]
    expect((await phone({ passphrase: null, cookie: remembered })).credential.length).toBeGreaterThan(0)
    const status = (credential: string) =>
      get(`${address}/connect/status`, { from: '127.0.0.2', headers: { token: `Bearer ${credential}` } })

    // The person says no in main's dialog: nothing changes.
    answers.push(false)
    expect(await call('sources:renew-phone-passphrase')).toBe(false)
    expect((await call<PhoneAccess>('sources:phone-access', { show: true })).passphrase).toBe(first)
    expect(launches).toHaveLength(2)

    // Yes: a new passphrase, the source restarted with it.
    answers.push(true)
    expect(await call('sources:renew-phone-passphrase')).toBe(true)
    expect(asked).toEqual([
      'Let your phone sign in?',
      RENEW_PASSPHRASE_REQUEST.title,
      RENEW_PASSPHRASE_REQUEST.title,
    ])
    await ready(3)
    const second = (await call<PhoneAccess>('sources:phone-access', { show: true })).passphrase!
    expect(second).not.toBe(first)
    expect(launches[2].passphrase).toBe(second)
    const renewedAddress = `http://127.0.0.2:${new URL(core.sources.get('builtin')!.url).port}`
    expect(renewedAddress).toBe(address)
    expect((await phone({ passphrase: first })).credential).toBe('')
    expect((await phone({ passphrase: null, cookie: remembered })).credential).toBe('')
    expect((await status(signedIn.credential)).status).toBe(401)
    expect((await phone({ passphrase: second })).credential.length).toBeGreaterThan(0)
    for (const secret of [first, second]) expect(pushed.join('\n')).not.toContain(secret)
  })
})
