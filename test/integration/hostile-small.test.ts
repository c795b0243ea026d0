import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDataSource, type DataSourceHandle } from '@server/index'
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
