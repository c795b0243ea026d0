import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDataSource, type DataSourceHandle } from '../../server/index'
import { data, signIn, type Json } from '../conformance/helpers'
import { makeTrack } from '../support/library-files'
import { OWNER_PASSPHRASE } from '../support/phone'

/** The media route serves only files inside the chosen folders; with a login required, nothing leaks. */
const root = mkdtempSync(join(tmpdir(), 'cadence-library-security-'))
const music = join(root, 'music')
const outside = join(root, 'outside.mp3')
afterAll(() => rmSync(root, { recursive: true, force: true }))

beforeAll(() => {
  mkdirSync(music)
  makeTrack(join(music, 'inside.mp3'), { title: 'Inside Song', artist: 'Kept', album: 'Kept Album' }, 1)
  makeTrack(join(music, 'swapped.mp3'), { title: 'Swapped Song', artist: 'Kept' }, 2)
  makeTrack(outside, { title: 'Outside Song', artist: 'Secret' }, 3)
  // A link inside the folder that leads out of it.
  symlinkSync(outside, join(music, 'leads-out.mp3'))
})

/** Sends a request line as given (fetch would normalise `..` away) and returns the status and body. */
function rawGet(url: string, path: string): Promise<{ status: number; body: Buffer }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.end(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`),
    )
    const chunks: Buffer[] = []
    socket.on('data', (c) => chunks.push(c))
    socket.on('error', reject)
    socket.on('end', () => {
      const all = Buffer.concat(chunks)
      resolve({ status: Number(all.toString('latin1').split(' ')[1]), body: all })
    })
  })
}

describe('library media route', () => {
  let server: DataSourceHandle
  beforeAll(async () => {
    server = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir: join(root, 'data'),
      library: music,
      demo: 0,
    })
  })
  afterAll(() => server.close())

  const secret = () => readFileSync(outside)

  it('refuses a path with `..` in it', async () => {
    for (const path of [
      '/media/../outside.mp3',
      '/media/..%2F..%2Foutside.mp3/128000',
      '/media/1/..%2F..%2Foutside.mp3',
    ]) {
      const res = await rawGet(server.url, path)
      expect(res.status, path).toBeGreaterThanOrEqual(400)
      expect(res.body.includes(secret().subarray(-64)), path).toBe(false)
    }
  })

  it('refuses an absolute path', async () => {
    for (const path of [
      `/media/${encodeURIComponent(outside)}/128000`,
      `/media/1/${encodeURIComponent(outside)}`,
      `/media/${outside}`,
    ]) {
      const res = await rawGet(server.url, path)
      expect(res.status, path).toBeGreaterThanOrEqual(400)
      expect(res.body.includes(secret().subarray(-64)), path).toBe(false)
    }
  })

  it('does not import a link leading out, and refuses a file swapped for one after the import', async () => {
    expect((await data(server.url, '/search?keywords=Outside%20Song')).songs).toHaveLength(0)
    const [song] = (await data(server.url, '/search?keywords=Swapped%20Song')).songs as Json[]
    const detail = await data(server.url, `/song/detail?id=${song.id}&uid=1`)
    expect((await fetch(detail.meta.url)).status).toBe(200)
    // The file becomes a link to one outside the folder: its signed URL no longer streams anything.
    unlinkSync(join(music, 'swapped.mp3'))
    symlinkSync(outside, join(music, 'swapped.mp3'))
    const res = await fetch(detail.meta.url)
    expect(res.status).toBe(404)
    expect(Buffer.from(await res.arrayBuffer()).includes(secret().subarray(-64))).toBe(false)
  })
})

describe('library behind a login (phone sign-in on)', () => {
  let server: DataSourceHandle
  beforeAll(async () => {
    server = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir: join(root, 'data-login'),
      library: music,
      demo: 0,
      requireLogin: true,
    })
  })
  afterAll(() => server.close())

  it('lists, searches and streams nothing of the folders without a login', async () => {
    const token = await signIn(server.url)
    const signed = { headers: { token } }
    const [song] = (await data(server.url, '/search?keywords=Inside%20Song', signed)).songs as Json[]
    expect(song.name).toBe('Inside Song')
    const detail = await data(server.url, `/song/detail?id=${song.id}&uid=1`, signed)
    const album = song.album.id

    for (const path of [
      '/search?keywords=Inside%20Song',
      `/song/detail?id=${song.id}&uid=1`,
      `/playlist/detail?id=${album}`,
      `/artist/detail?id=${song.artists[0].id}`,
      '/home',
    ]) {
      const res = await fetch(server.url + path)
      expect(res.status, path).toBe(401)
      expect(await res.text(), path).not.toContain('Inside Song')
    }
    // The signed URL works for the signed-in client; a link made up without one streams nothing.
    expect((await fetch(detail.meta.url)).status).toBe(200)
    const madeUp = new URL(detail.meta.url)
    madeUp.searchParams.set('anon', '1')
    expect([401, 403]).toContain((await fetch(madeUp)).status)
    madeUp.searchParams.delete('sig')
    expect([401, 403]).toContain((await fetch(madeUp)).status)
  })
})
