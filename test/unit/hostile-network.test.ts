import { createServer } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { createMemoryStore } from '@main/core'
import { realCacheFs } from '@main/core/media-cache'
import { BlockedAddressError, canonicalAddress, isPublicAddress } from '@main/core/net'
import type { LookupAll } from '@main/core/net'
import { allowedAddresses, createGuardedFetch } from '@main/core/net/guarded-fetch'
import type { HopRequest } from '@main/core/net/pinned-transport'
import { createPinnedTransport } from '@main/core/net/pinned-transport'
import { createExtrasStore } from '@main/core/offline/extras'
import { createSourceRegistry } from '@main/core/sources/registry'
import { validateLocalHost } from '@main/core/sources/url'

/** Issue 33, items 3 and 7: where main lets a data source point it, decided on addresses, per source. */

const dns = (table: Record<string, string[]>): LookupAll & { asked: string[] } => {
  const asked: string[] = []
  const lookup = async (hostname: string) => {
    asked.push(hostname)
    const addresses = table[hostname]
    if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  return Object.assign(lookup, { asked })
}

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.0.0.2',
    '::1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.5',
    '100.64.0.1',
    '100.127.255.255',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.251',
    '255.255.255.255',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::fb',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '[::ffff:192.168.1.5]',
    '64:ff9b::a00:1',
    '2002:c0a8:101::1',
    'nas.local',
    'example.com',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false))

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'lets %s through',
    (address) => expect(isPublicAddress(address)).toBe(true),
  )

  it('spells one address one way', () => {
    expect(canonicalAddress('::ffff:192.168.1.5')).toBe('192.168.1.5')
    expect(canonicalAddress('[FE80::0:1]')).toBe(canonicalAddress('fe80::1'))
    expect(canonicalAddress('nas.local')).toBeUndefined()
  })
})

describe('allowedAddresses', () => {
  const at = (url: string, hosts: string[], table: Record<string, string[]> = {}) =>
    allowedAddresses(new URL(url), { hosts }, dns(table))

  it('lets a source point at public addresses, and connects to none of a name’s private ones', async () => {
    expect(
      await at('https://cdn.example.com/a.mp3', ['music.example.com'], {
        'cdn.example.com': ['93.184.216.34'],
      }),
    ).toEqual(['93.184.216.34'])
    expect(
      await at('https://edge.example.net/a.mp3', ['music.example.com'], {
        'edge.example.net': ['93.184.216.34', '10.0.0.1'],
      }),
    ).toEqual(['93.184.216.34'])
  })

  it('refuses a public-looking name that resolves to this computer or the network', async () => {
    await expect(
      at('http://cdn.example.com/a', ['127.0.0.1'], { 'cdn.example.com': ['127.0.0.2'] }),
    ).rejects.toThrow(BlockedAddressError)
    await expect(
      at('http://cdn.example.com/a', ['music.example.com'], { 'cdn.example.com': ['::ffff:192.168.1.6'] }),
    ).rejects.toThrow(BlockedAddressError)
  })

  it('refuses .local and localhost names whatever they resolve to, unless they are the source’s', async () => {
    await expect(
      at('http://box.local/a', ['192.168.1.5'], { 'box.local': ['93.184.216.34'] }),
    ).rejects.toThrow(BlockedAddressError)
    await expect(at('http://localhost:9/a', ['127.0.0.2'], { localhost: ['127.0.0.1'] })).rejects.toThrow(
      BlockedAddressError,
    )
    // The source's own host, by name or by address.
    const table = { 'nas.local': ['192.168.1.5'] }
    expect(await at('http://nas.local:8080/a', ['nas.local'], table)).toEqual(['192.168.1.5'])
    expect(await at('http://192.168.1.5:8080/a', ['nas.local'], table)).toEqual(['192.168.1.5'])
    expect(await at('http://nas.local/a', ['192.168.1.5'], table)).toEqual(['192.168.1.5'])
  })

  it('lets a source on the network use its own host and the one allowed, nothing else there', async () => {
    expect(await at('http://192.168.1.5/a', ['192.168.1.5'])).toEqual(['192.168.1.5'])
    await expect(at('http://192.168.1.6/a', ['192.168.1.5'])).rejects.toThrow(BlockedAddressError)
    expect(await at('http://192.168.1.6/a', ['192.168.1.5', '192.168.1.6'])).toEqual(['192.168.1.6'])
    await expect(at('http://[fe80::1]/a', ['192.168.1.5'])).rejects.toThrow(BlockedAddressError)
    await expect(at('file:///etc/passwd', ['192.168.1.5'])).rejects.toThrow(BlockedAddressError)
  })
})

describe('createGuardedFetch', () => {
  /** A transport that records each hop and answers from a table of redirects. */
  function recording(redirects: Record<string, string>) {
    const hops: Array<{ url: string; addresses: string[]; headers: Record<string, string> }> = []
    const transport = async (url: URL, request: HopRequest, addresses: string[]) => {
      hops.push({ url: url.href, addresses, headers: Object.fromEntries(request.headers) })
      const location = redirects[url.href]
      return location
        ? new Response(null, { status: 302, headers: { Location: location } })
        : new Response('audio', { status: 200 })
    }
    return { hops, transport }
  }
  const policy = () => ({ hosts: ['music.example.com'] })
  const table = {
    'music.example.com': ['93.184.216.34'],
    'cdn.example.com': ['93.184.216.35'],
    'rebound.example.com': ['192.168.1.6'],
  }

  it('checks every hop before it is asked, and sends each to the addresses it checked', async () => {
    const { hops, transport } = recording({
      'https://music.example.com/s/1': 'https://cdn.example.com/a/1',
      'https://cdn.example.com/a/1': 'https://rebound.example.com/lan/1',
    })
    const guarded = createGuardedFetch({ lookup: dns(table), transport })(policy)
    await expect(
      guarded('https://music.example.com/s/1', { headers: { Range: 'bytes=0-', Authorization: 'x' } }),
    ).rejects.toThrow(BlockedAddressError)
    expect(hops.map((h) => [h.url, h.addresses])).toEqual([
      ['https://music.example.com/s/1', ['93.184.216.34']],
      ['https://cdn.example.com/a/1', ['93.184.216.35']],
    ])
    // The Range goes on; a credential does not leave the origin it was meant for.
    expect(hops[1]!.headers).toEqual({ range: 'bytes=0-' })
  })

  it('follows at most 5 redirects, and sends nothing but GET and HEAD', async () => {
    const redirects: Record<string, string> = {}
    for (let i = 0; i < 10; i++)
      redirects[`https://cdn.example.com/${i}`] = `https://cdn.example.com/${i + 1}`
    const { hops, transport } = recording(redirects)
    const guarded = createGuardedFetch({ lookup: dns(table), transport })(policy)
    await expect(guarded('https://cdn.example.com/0')).rejects.toThrow(/more than 5 redirects/)
    expect(hops).toHaveLength(6)
    expect((await guarded('https://cdn.example.com/9')).status).toBe(200)
    await expect(guarded('https://cdn.example.com/10', { method: 'POST' })).rejects.toThrow(TypeError)
  })
})

describe('createPinnedTransport', () => {
  let server: ReturnType<typeof createServer>
  let port = 0
  const hosts: string[] = []
  beforeAll(async () => {
    server = createServer((req, res) => {
      hosts.push(req.headers.host ?? '')
      res.writeHead(200, { 'Content-Type': 'audio/mpeg' }).end('bytes')
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    port = (server.address() as { port: number }).port
  })
  afterAll(() => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))))

  it('connects to the checked address whatever the name resolves to', async () => {
    const transport = createPinnedTransport()
    try {
      // No resolver knows this name: only the pinned address can be where the answer came from.
      const url = new URL(`http://pinned.invalid:${port}/a`)
      const answer = await transport(url, { method: 'GET', headers: new Headers() }, ['127.0.0.1'])
      expect(answer.status).toBe(200)
      expect(await answer.text()).toBe('bytes')
      expect(hosts).toEqual([`pinned.invalid:${port}`])
    } finally {
      transport.dispose()
    }
  })
})

describe('validateLocalHost', () => {
  it('keeps a host name or an IP address, nothing else', () => {
    expect(validateLocalHost(' NAS.local ')).toBe('nas.local')
    expect(validateLocalHost('192.168.1.20')).toBe('192.168.1.20')
    expect(validateLocalHost('[fe80::1]')).toBe('fe80::1')
    expect(validateLocalHost('')).toBe('')
    for (const bad of [
      'http://nas.local',
      'nas.local:8080',
      'nas.local/share',
      'me@nas.local',
      '192.168.1',
    ]) {
      expect(() => validateLocalHost(bad), bad).toThrow(/host name or an IP address/)
    }
  })

  it('is kept in the source’s stored record, for added sources only', async () => {
    const store = createMemoryStore()
    const registry = createSourceRegistry({ store, probe: false, newId: () => 'home' })
    await registry.add({ url: 'http://192.168.1.5:4000' })
    expect(registry.setLocalHost('home', 'nas.local').localHost).toBe('nas.local')
    expect(createSourceRegistry({ store }).get('home')?.localHost).toBe('nas.local')
    expect(registry.setLocalHost('home', '').localHost).toBeUndefined()
    expect(() => registry.setLocalHost('builtin', 'nas.local')).toThrow()
  })
})

describe('covers are fetched for the source that named them', () => {
  let dir: string
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'cadence-covers-net-'))))
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  const song = (cover: string): Song => ({
    id: 1,
    name: 'Song',
    tns: [],
    artists: [],
    album: { id: 1, name: 'Album', cover, artists: [], size: undefined },
    duration: undefined,
    privilege: undefined,
    meta: undefined,
  })
  const png = () =>
    new Response(new Uint8Array([137, 80, 78, 71]), { headers: { 'Content-Type': 'image/png' } })

  it('does not hand one source the cover another source’s policy fetched', async () => {
    const cover = 'http://192.168.1.6/cover.png'
    const asked: string[] = []
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    const extras = createExtrasStore({
      fs: realCacheFs,
      dir,
      // Without a source: what the store fetched before sources had policies.
      fetch: (async () => (asked.push('unscoped'), png())) as typeof fetch,
      fetchFor: (sourceId) =>
        (async () => {
          asked.push(sourceId)
          if (sourceId !== 'home') throw new BlockedAddressError('not its host')
          await held
          return png()
        }) as typeof fetch,
    })
    // The home source may reach its NAS; its cover is on the way when the hostile source names the same.
    const home = extras.keep({ sourceId: 'home', songId: '1', bitrate: 320000 }, song(cover))
    const hostileKey = { sourceId: 'hostile', songId: '1', bitrate: 320000 }
    await extras.keep(hostileKey, song(cover))
    release()
    await home
    expect((await extras.read(hostileKey))?.cover).toBeUndefined()
    expect((await extras.read({ sourceId: 'home', songId: '1' }))?.cover).toBeDefined()
    expect(asked.sort()).toEqual(['home', 'hostile'])
  })
})
