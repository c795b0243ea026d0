import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiClient } from '@main/core/api/client'
import { signInBuiltin } from '@main/core/auth/builtin-signin'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import { OWNER_PASSPHRASE } from '../support/phone'

describe('every API client method against the reference data source', () => {
  let server: DataSourceHandle
  let dataDir: string
  let credential: string
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-client-int-'))
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 80 })
    credential = await signInBuiltin({
      passphrase: OWNER_PASSPHRASE,
      api: createApiClient({ baseUrl: server.url, getCredential: () => undefined }),
    })
  })
  afterAll(async () => {
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('reads the catalogue as typed models', async () => {
    const api = createApiClient({ baseUrl: server.url, getCredential: () => credential })
    const user = await api.loginStatus()
    expect((await api.userPlaylists(user.id)).length).toBeGreaterThan(0)
    expect((await api.toplists(3)).length).toBeGreaterThan(0)
    const [song] = await api.recommendSongs(1)
    expect(song.artists.length).toBeGreaterThan(0)
    const [artist] = await api.recommendArtists(1)
    expect(await api.artistDetail(artist.id)).toMatchObject({ id: expect.anything() })
    const detail = await api.songDetail(song.id, user.id, 128000)
    expect(detail.meta?.url).toContain(server.url)
    expect(await api.likeSong(song.id, true)).toMatchObject({ like: true })
    expect(await api.likeSong(song.id, false)).toMatchObject({ like: false })
    const found = await api.search(song.name.split(' ')[0], 5)
    expect(
      found.songs.length + found.albums.length + found.artists.length + found.playlists.length,
    ).toBeGreaterThan(0)
    const { unikey } = await api.qrKey()
    expect(await api.qrCheck(unikey)).toMatchObject({ status: 0 })
    expect((await api.qrCreate(unikey, false)).qrurl).toContain(server.url)
  })

  it('reports an unknown playlist as an api error with the server message', async () => {
    const api = createApiClient({ baseUrl: server.url, getCredential: () => undefined })
    await expect(api.playlistDetail(987654321)).rejects.toMatchObject({ kind: 'api', status: 404 })
  })

  it('reports a like without a login as unauthorized', async () => {
    const api = createApiClient({ baseUrl: server.url, getCredential: () => undefined })
    await expect(api.likeSong(1, true)).rejects.toMatchObject({ kind: 'unauthorized', status: 401 })
  })
})
