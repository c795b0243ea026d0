import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDataSource, type DataSourceHandle } from '../../server/index'
import { data, type Json } from '../conformance/helpers'
import { OWNER_PASSPHRASE } from '../support/phone'

/** The reference server's extension to `/playlist/detail`: `offset` and `limit` page the songs. */
describe('reference server: a playlist a page at a time', () => {
  let dir: string
  let server: DataSourceHandle
  let id: number
  let all: Json
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cadence-paging-'))
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir: dir, port: 0, demo: 300 })
    const lists = (await data(server.url, '/playlist/recommend?limit=100')) as Json[]
    const sized = lists.sort((a, b) => (b.size ?? 0) - (a.size ?? 0))
    id = sized[0].id
    all = await data(server.url, `/playlist/detail?id=${id}`)
    expect(all.songs.length).toBeGreaterThan(10)
  })
  afterAll(async () => {
    await server?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('answers the songs from offset, at most limit, with the whole list as size', async () => {
    const page = await data(server.url, `/playlist/detail?id=${id}&offset=3&limit=5`)
    expect(page.size).toBe(all.songs.length)
    expect(page.songs).toEqual(all.songs.slice(3, 8))
    expect({ ...page, songs: undefined }).toEqual({ ...all, songs: undefined })
  })

  it('answers an empty page past the end, and every song without the parameters', async () => {
    const past = await data(server.url, `/playlist/detail?id=${id}&offset=100000&limit=5`)
    expect(past.songs).toEqual([])
    expect(past.size).toBe(all.songs.length)
    expect(all.size).toBe(all.songs.length)
  })

  it('refuses a limit below 1 or an offset that is not a number', async () => {
    expect((await fetch(`${server.url}/playlist/detail?id=${id}&limit=0`)).status).toBe(400)
    expect((await fetch(`${server.url}/playlist/detail?id=${id}&offset=x`)).status).toBe(400)
  })
})
