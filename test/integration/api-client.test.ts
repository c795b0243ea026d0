import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiClient } from '@main/core/api/client'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import { OWNER_PASSPHRASE } from '../support/phone'

describe('API client against the reference data source', () => {
  let server: DataSourceHandle
  let dataDir: string
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-int-'))
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 120 })
  })
  afterAll(async () => {
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('gets a QR key and the recommended playlists as typed models', async () => {
    const api = createApiClient({ baseUrl: server.url, getCredential: () => undefined })
    const { unikey } = await api.qrKey()
    expect(unikey.length).toBeGreaterThan(8)
    const playlists = await api.recommendPlaylists()
    expect(playlists.length).toBeGreaterThan(0)
    expect(playlists.length).toBeLessThanOrEqual(10)
    for (const playlist of playlists) {
      expect(playlist.name).not.toBe('')
      expect(['normal', 'album', 'dj', 'artist']).toContain(playlist.type)
    }
  })

  it('reports a missing login as unauthorized', async () => {
    const api = createApiClient({ baseUrl: server.url, getCredential: () => 'not-a-real-credential' })
    await expect(api.loginStatus()).rejects.toMatchObject({
      kind: 'unauthorized',
      endpoint: '/connect/status',
    })
  })
})
