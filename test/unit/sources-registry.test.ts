import { afterEach, describe, expect, it } from 'vitest'
import { BUILTIN_ID, createSourceRegistry, probeSource, SOURCES_KEY } from '@main/core/sources/registry'
import { createMemoryStore } from '@main/core/ports'
import { json, ok, startFixtureServer } from '../support/fixture-server'

let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

const registry = (store = createMemoryStore()) => {
  let n = 0
  return { store, sources: createSourceRegistry({ store, probe: false, newId: () => `src-${++n}` }) }
}

describe('createSourceRegistry', () => {
  it('lists the built-in source first and active by default', () => {
    const { sources } = registry()
    sources.setBuiltin('http://127.0.0.1:5000/', 'ready')
    expect(sources.list()).toEqual({
      sources: [
        {
          id: BUILTIN_ID,
          name: 'Built-in library',
          url: 'http://127.0.0.1:5000',
          builtin: true,
          insecure: false,
          state: 'ready',
        },
      ],
      activeId: BUILTIN_ID,
    })
  })

  it('adds sources by URL, once per address, with an insecure flag for plain http on the LAN', async () => {
    const { sources, store } = registry()
    const lan = await sources.add({ url: 'http://192.168.1.20:4000/', name: 'NAS' })
    expect(lan).toEqual({
      id: 'src-1',
      name: 'NAS',
      url: 'http://192.168.1.20:4000',
      builtin: false,
      insecure: true,
    })
    expect(await sources.add({ url: 'http://192.168.1.20:4000' })).toEqual(lan)
    const remote = await sources.add({ url: 'https://music.example.com' })
    expect(remote).toMatchObject({ id: 'src-2', name: 'music.example.com', insecure: false })
    expect(sources.list().sources.map((s) => s.id)).toEqual([BUILTIN_ID, 'src-1', 'src-2'])
    // Survives a restart.
    const again = createSourceRegistry({ store, probe: false })
    expect(again.list().sources.map((s) => s.id)).toEqual([BUILTIN_ID, 'src-1', 'src-2'])
  })

  it('activates and removes; removing the active one falls back to the built-in source', async () => {
    const { sources } = registry()
    const added = await sources.add({ url: 'https://music.example.com' })
    sources.setActive(added.id)
    expect(sources.active().id).toBe(added.id)
    sources.remove(added.id)
    expect(sources.active().id).toBe(BUILTIN_ID)
    expect(() => sources.remove(BUILTIN_ID)).toThrow(/cannot be removed/)
    expect(() => sources.setActive('nope')).toThrow(/No such/)
  })

  it('survives a damaged store', () => {
    const { sources } = registry(
      createMemoryStore({ [SOURCES_KEY]: { added: [{ id: 1 }, null], activeId: 'gone' } }),
    )
    expect(sources.list()).toMatchObject({ activeId: BUILTIN_ID, sources: [{ id: BUILTIN_ID }] })
  })
})

describe('probeSource', () => {
  it('accepts an address that hands out QR keys', async () => {
    const server = await startFixtureServer((req, res) =>
      req.url === '/connect/qr/key' ? json(res, ok({ unikey: 'abc' })) : json(res, {}, 404),
    )
    close = server.close
    await expect(probeSource(server.url)).resolves.toBeUndefined()
  })

  it('accepts one without QR login that serves playlists', async () => {
    const server = await startFixtureServer((req, res) =>
      req.url?.startsWith('/playlist/recommend') ? json(res, ok([])) : json(res, { error: 'no' }, 404),
    )
    close = server.close
    await expect(probeSource(server.url)).resolves.toBeUndefined()
  })

  it('says clearly when the address is a web site, not a data source', async () => {
    const server = await startFixtureServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' })
      res.end('<html>hello</html>')
    })
    close = server.close
    await expect(probeSource(server.url)).rejects.toMatchObject({
      kind: 'invalid-argument',
      message: expect.stringMatching(/not a music data source/),
    })
  })

  it('says clearly when nothing answers', async () => {
    const server = await startFixtureServer((_req, res) => json(res, ok({})))
    await server.close()
    await expect(probeSource(server.url)).rejects.toMatchObject({
      kind: 'unavailable',
      message: expect.stringMatching(/Cannot reach/),
    })
  })
})
