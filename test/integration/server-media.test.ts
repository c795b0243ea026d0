import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startDataSource, type DataSourceHandle } from '../../server/index'
import { api, data } from '../conformance/helpers'
import { OWNER_PASSPHRASE } from '../support/phone'
import * as phone from '../support/phone'

describe('reference server: expiry', () => {
  let server: DataSourceHandle
  let dir: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cadence-media-'))
    server = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir: dir,
      demo: 40,
      mediaUrlTtlSeconds: 1,
      tokenTtlSeconds: 2,
    })
  })
  afterAll(async () => {
    vi.useRealTimers()
    await server?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('media URLs expire (403, no bytes)', async () => {
    const song = await data(server.url, '/song/detail?id=1&uid=1')
    expect((await fetch(song.meta.url, { headers: { Range: 'bytes=0-3' } })).status).toBe(206)
    await new Promise((r) => setTimeout(r, 2100))
    const res = await fetch(song.meta.url)
    expect(res.status).toBe(403)
    const body = await res.json()
    expect(body.code).toBe(-1)
    expect(body.message).toMatch(/expired/)
  })

  it('QR keys expire after five minutes; credentials after their lifetime', async () => {
    const { unikey } = await data(server.url, '/connect/qr/key')
    expect((await data(server.url, `/connect/qr/check?key=${unikey}`)).status).toBe(0)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 5 * 60 * 1000 + 1000)
    const check = await api(server.url, `/connect/qr/check?key=${unikey}`)
    expect(check.code).toBe(0)
    expect(check.data).toEqual({ status: -1, cookie: '' })
    vi.useRealTimers()

    const key2 = (await data(server.url, '/connect/qr/key')).unikey
    const { qrurl } = await data(server.url, `/connect/qr/create?key=${key2}`)
    await (await phone.confirmOnPhone(qrurl)).text()
    const { cookie } = await data(server.url, `/connect/qr/check?key=${key2}`)
    expect((await api(server.url, '/connect/status', { headers: { Token: cookie } })).code).toBe(0)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 3000)
    const gone = await api(server.url, '/connect/status', { headers: { Token: cookie } })
    vi.useRealTimers()
    expect(gone.code).toBe(-1)
  })
})
