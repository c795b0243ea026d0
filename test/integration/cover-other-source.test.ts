import { createServer } from 'node:http'
import type { Server } from 'node:http'
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

/** A server on a loopback address of its own, counting the requests it gets; `answer` per path. */
async function listener(
  host: string,
  answer: (path: string, res: import('node:http').ServerResponse) => void,
) {
  const hits: string[] = []
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '/')
    answer(req.url ?? '/', res)
  })
  await new Promise<void>((done) => server.listen(0, host, done))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no address')
  return {
    url: `http://${host}:${address.port}`,
    hits,
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((done) => server.close(() => done()))
    },
  }
}

/**
 * Issue 36: one queue holds songs of several sources, and now-playing reads the cover of a song of a
 * source that is not the active one through main's cover route. Main fetches it under the policy of the
 * source that gave the address (`&source=`), with the same size cap and image types, not the active
 * source's: a hostile source cannot point main at the active source's network through its covers.
 */
describe('the cover route for a song of another source than the active one', () => {
  let builtin: DataSourceHandle
  let dataDir: string
  let core: Core
  let nas: Awaited<ReturnType<typeof listener>>
  let hostile: Awaited<ReturnType<typeof listener>>
  let nasSource: DataSourceInfo
  let hostileSource: DataSourceInfo

  const invoke = async <T>(channel: string, args?: unknown): Promise<T> => {
    const result = (await core.router.invoke(channel as never, args as never, APP)) as IpcResult<T>
    if (!result.ok) throw new Error(`${channel}: ${result.error.kind} ${result.error.message}`)
    return result.value
  }
  const png = (hits: string[]) => hits.filter((hit) => hit.includes('.png') || hit.includes('.html'))

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-cover-other-'))
    builtin = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 5 })
    // A machine of the user's network the active source lives on (a NAS).
    nas = await listener('127.0.0.2', (path, res) => {
      if (path.endsWith('.png')) res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG)
      else res.writeHead(404).end()
    })
    // Another source, hostile: its own covers are too large or not images.
    hostile = await listener('127.0.0.3', (path, res) => {
      if (path === '/ok.png') res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG)
      else if (path === '/huge.png')
        res.writeHead(200, { 'Content-Type': 'image/png' }).end(Buffer.alloc(3 << 20))
      else if (path === '/page.html')
        res.writeHead(200, { 'Content-Type': 'text/html' }).end('<script></script>')
      else res.writeHead(404).end()
    })
    core = createCore({
      store: createMemoryStore(),
      cipher: createTestCipher(),
      isTrustedSender: () => true,
      appInfo: { name: 'Cadence', version: '0', platform: 'linux' },
      builtinSourceUrl: builtin.url,
      builtinPassphrase: OWNER_PASSPHRASE,
      probeSources: false,
      timeoutMs: 5000,
    })
    await core.start()
    nasSource = await invoke<DataSourceInfo>('sources:add', { url: nas.url })
    hostileSource = await invoke<DataSourceInfo>('sources:add', { url: hostile.url })
  }, 60_000)
  afterAll(async () => {
    core?.dispose()
    await nas?.close()
    await hostile?.close()
    await builtin?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('never lets another source point main at the active source’s network', async () => {
    await invoke('sources:activate', { id: nasSource.id })
    // The hostile source's song names a cover on the NAS: refused under the hostile source's policy.
    const answer = await core.media(new Request(coverMediaUrl(`${nas.url}/stolen.png`, hostileSource.id)))
    expect(answer.status).toBe(404)
    expect(png(nas.hits)).toEqual([])
    // The same address named by the active source itself is its own.
    const own = await core.media(new Request(coverMediaUrl(`${nas.url}/own.png`, nasSource.id)))
    expect(own.status).toBe(200)
    expect(png(nas.hits)).toEqual(['/own.png'])
  })

  it('fetches another source’s own cover under its policy, with the size cap and image types', async () => {
    await invoke('sources:activate', { id: 'builtin' })
    const ok = await core.media(new Request(coverMediaUrl(`${hostile.url}/ok.png`, hostileSource.id)))
    expect(ok.status).toBe(200)
    expect(ok.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await ok.arrayBuffer()).equals(PNG)).toBe(true)
    for (const path of ['/huge.png', '/page.html']) {
      const refused = await core.media(new Request(coverMediaUrl(`${hostile.url}${path}`, hostileSource.id)))
      expect(refused.status, path).toBe(404)
    }
    expect(png(hostile.hits)).toEqual(['/ok.png', '/huge.png', '/page.html'])
    // Not named (the active source's pages): under the built-in's policy, the other host is refused.
    expect((await core.media(new Request(coverMediaUrl(`${hostile.url}/ok.png`)))).status).toBe(404)
    expect(png(hostile.hits)).toHaveLength(3)
  })

  it('shows the built-in source’s song cover while another source is active', async () => {
    await invoke('sources:activate', { id: 'builtin' })
    const song = await invoke<Song>('player:resolve', { id: 1, br: 128000 })
    const cover = song.album!.cover!
    await invoke('sources:activate', { id: hostileSource.id })
    const answer = await core.media(new Request(coverMediaUrl(cover, 'builtin')))
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('image/svg+xml')
  })
})
