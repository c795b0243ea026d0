import { createServer } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, createMemoryStore } from '@main/core'
import type { Core } from '@main/core'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import type { Song } from '@shared/api/models'
import type { DataSourceInfo, IpcResult } from '@shared/ipc/contract'
import { coverMediaUrl } from '@shared/player/media-url'
import { createTestCipher } from '../support/test-cipher'
import { OWNER_PASSPHRASE } from '../support/phone'

const APP = { senderUrl: 'app://cadence/index.html' }
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7, 7])

/**
 * Issue 33: the reference server sends covers without `Access-Control-Allow-Origin` (no web page reads
 * their pixels), so the renderer reads a cover's pixels (the now-playing tint, the notification's PNG)
 * through main's media scheme, which fetches the cover itself under the active source's policy. A cover
 * naming another machine of the user's network (a listener on 127.0.0.2, counting what it gets) is never
 * requested for a source that does not live there.
 */
describe('the cover route for the renderer’s pixel reads', () => {
  let server: DataSourceHandle
  let dataDir: string
  let core: Core
  const lanHits: string[] = []
  const lan = createServer((req, res) => {
    lanHits.push(req.url ?? '/')
    if (req.url?.endsWith('.png')) {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PNG.length }).end(PNG)
      return
    }
    res.writeHead(404, { 'Content-Type': 'application/json' })
    res.end(JSON.stringify({ code: 404, message: 'Nothing here', data: null }))
  })
  let lanUrl = ''

  const invoke = async <T>(channel: string, args?: unknown): Promise<T> => {
    const result = (await core.router.invoke(channel as never, args as never, APP)) as IpcResult<T>
    if (!result.ok) throw new Error(`${channel}: ${result.error.kind} ${result.error.message}`)
    return result.value
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-cover-tint-'))
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 5 })
    await new Promise<void>((done) => lan.listen(0, '127.0.0.2', done))
    const address = lan.address()
    if (!address || typeof address === 'string') throw new Error('no address')
    lanUrl = `http://127.0.0.2:${address.port}`
    core = createCore({
      store: createMemoryStore(),
      cipher: createTestCipher(),
      isTrustedSender: () => true,
      appInfo: { name: 'Cadence', version: '0', platform: 'linux' },
      builtinSourceUrl: server.url,
      builtinPassphrase: OWNER_PASSPHRASE,
      probeSources: false,
      timeoutMs: 5000,
    })
    await core.start()
  })
  afterAll(async () => {
    core?.dispose()
    lan.closeAllConnections()
    await new Promise<void>((done) => lan.close(() => done()))
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('answers the built-in source’s cover with its bytes and the scheme’s CORS approval', async () => {
    const song = await invoke<Song>('player:resolve', { id: 1, br: 128000 })
    const cover = song.album?.cover
    expect(cover).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/cover\//)
    // The server itself gives a page no approval to read the pixels.
    const direct = await fetch(cover!)
    expect(direct.headers.get('access-control-allow-origin')).toBeNull()
    const served = Buffer.from(await direct.arrayBuffer())

    const answer = await core.media(new Request(coverMediaUrl(cover!)))
    expect(answer.status).toBe(200)
    expect(answer.headers.get('access-control-allow-origin')).toBe('*')
    expect(answer.headers.get('content-type')).toBe('image/svg+xml')
    expect(answer.headers.get('content-security-policy')).toContain('sandbox')
    expect(Buffer.from(await answer.arrayBuffer()).equals(served)).toBe(true)
  })

  it('never requests a cover on another machine of the network, unless the active source lives there', async () => {
    const address = coverMediaUrl(`${lanUrl}/cover.png`)
    const first = await core.media(new Request(address))
    expect(first.status).toBe(404)
    expect(first.headers.get('access-control-allow-origin')).toBe('*')
    expect(lanHits.filter((hit) => hit.endsWith('.png'))).toEqual([])

    // A source at that address names its own cover: fetched under that source's policy.
    const there = await invoke<DataSourceInfo>('sources:add', { url: lanUrl })
    await invoke('sources:activate', { id: there.id })
    const own = await core.media(new Request(address))
    expect(own.status).toBe(200)
    expect(Buffer.from(await own.arrayBuffer()).equals(PNG)).toBe(true)
    expect(lanHits.filter((hit) => hit.endsWith('.png'))).toEqual(['/cover.png'])

    // Back on the built-in source: refused again, the copy fetched for the other source not given out.
    await invoke('sources:activate', { id: 'builtin' })
    expect((await core.media(new Request(address))).status).toBe(404)
    expect(lanHits.filter((hit) => hit.endsWith('.png'))).toEqual(['/cover.png'])
  })
})
