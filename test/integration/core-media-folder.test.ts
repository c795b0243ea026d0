import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Core } from '@main/core'
import { startDataSource, type DataSourceHandle } from '@server/index'
import type { Song } from '@shared/api/models'
import type { DownloadsPage, DownloadsSummary } from '@shared/ipc/contract'
import { asRow } from '../support/collection-row'
import { OWNER_PASSPHRASE } from '../support/phone'
import { createTestCore, invokeOk } from '../support/test-core'

/**
 * Two cores in one process, neither given a media folder (as tests and the e2e harness build them): each
 * has its own, so one core's `dispose`, which deletes its folder, leaves the other's downloads alone.
 */
describe('the default media folder', () => {
  let dataDir: string
  let server: DataSourceHandle
  const cores: Core[] = []
  /** Audio any core asked the data source for. */
  const mediaRequests: string[] = []

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-media-folder-'))
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 10 })
  })
  afterAll(async () => {
    for (const core of cores) await core.dispose()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  const start = async () => {
    const core = createTestCore({
      builtinSourceUrl: server.url,
      builtinPassphrase: OWNER_PASSPHRASE,
      fetch: (input, init) => {
        const path = new URL(String(input instanceof Request ? input.url : input)).pathname
        if (path.startsWith('/media/') && !path.startsWith('/media/cover/')) mediaRequests.push(path)
        return fetch(input, init)
      },
    })
    cores.push(core)
    await core.start()
    return core
  }

  it("is the core's own: disposing another core keeps this one's downloads playable", async () => {
    const first = await start()
    const invoke = <T>(channel: string, args?: unknown) => invokeOk<T>(first, channel, args)
    const song = (await invoke<Song[]>('catalog:recommend-songs', { limit: 5 })).find(
      (candidate) => candidate.privilege?.playable !== false,
    )!
    await invoke('downloads:add', { songs: [asRow(song)] })
    await expect
      .poll(async () => (await invoke<DownloadsSummary>('downloads:summary')).done, { timeout: 30_000 })
      .toBe(1)
    const [row] = (await invoke<DownloadsPage>('downloads:list', { offset: 0, limit: 10 })).rows

    const second = await start()
    await second.dispose()
    cores.splice(cores.indexOf(second), 1)

    const before = mediaRequests.length
    const resolved = await invoke<Song>('player:resolve', { id: song.id, sourceId: row!.sourceId })
    const answer = await first.media(new Request(resolved.meta!.url!))
    expect(answer.status).toBe(200)
    expect((await answer.arrayBuffer()).byteLength).toBe(row!.size)
    // From this core's own folder: the data source was not asked for the song again.
    expect(mediaRequests.length).toBe(before)
  })
})
