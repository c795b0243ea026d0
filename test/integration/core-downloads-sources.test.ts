import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Core } from '@main/core'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import type { Song } from '@shared/api/models'
import type { DownloadsPage, DownloadsSummary } from '@shared/ipc/contract'
import { parseMediaUrl } from '@shared/player/media-url'
import { createTestCore, invokeOk } from '../support/test-core'
import { OWNER_PASSPHRASE } from '../support/phone'
import { asRow } from '../support/collection-row'

/**
 * Issue 34 item 2 against two reference servers: songs downloaded on the built-in source play from disk
 * while another source is active, and stopped, each from its own source's files.
 */

describe('downloads of one data source while another is active', () => {
  const dirs: string[] = []
  let builtin: DataSourceHandle
  let other: DataSourceHandle
  let core: Core
  /** Audio the core asked any data source for. */
  const mediaRequests: string[] = []

  const invoke = <T>(channel: string, args?: unknown) => invokeOk<T>(core, channel, args)
  const tempDir = async (name: string) => {
    const dir = await mkdtemp(join(tmpdir(), name))
    dirs.push(dir)
    return dir
  }

  beforeAll(async () => {
    builtin = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir: await tempDir('cadence-a-'),
      port: 0,
      demo: 20,
    })
    other = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir: await tempDir('cadence-b-'),
      port: 0,
      demo: 20,
    })
    core = createTestCore({
      builtinSourceUrl: builtin.url,
      builtinPassphrase: OWNER_PASSPHRASE,
      timeoutMs: 3000,
      mediaDir: await tempDir('cadence-media-'),
      fetch: (input, init) => {
        const url = String(input instanceof Request ? input.url : input)
        const path = new URL(url).pathname
        if (path.startsWith('/media/') && !path.startsWith('/media/cover/')) mediaRequests.push(url)
        return fetch(input, init)
      },
    })
    await core.start()
  })
  afterAll(async () => {
    core?.dispose()
    await builtin?.close()
    await other?.close()
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  it('plays the downloads of the built-in source from disk with another source active and stopped', async () => {
    const songs = (await invoke<Song[]>('catalog:recommend-songs', { limit: 10 }))
      .filter((song) => song.privilege?.playable !== false)
      .slice(0, 3)
    await invoke<DownloadsSummary>('downloads:add', { songs: songs.map(asRow) })
    await expect
      .poll(async () => (await invoke<DownloadsSummary>('downloads:summary')).done, { timeout: 30_000 })
      .toBe(3)
    const rows = (await invoke<DownloadsPage>('downloads:list', { offset: 0, limit: 10 })).rows
    const builtinId = rows[0]!.sourceId

    // Another source, active, then stopped.
    const added = await invoke<{ id: string }>('sources:add', { url: other.url })
    await invoke('sources:activate', { id: added.id })
    await other.close()
    const before = mediaRequests.length

    for (const row of rows) {
      expect(row.sourceId).toBe(builtinId)
      const resolved = await invoke<Song>('player:resolve', { id: row.song.id, sourceId: row.sourceId })
      expect(resolved.privilege?.playable).toBe(true)
      const ref = parseMediaUrl(resolved.meta!.url!)
      expect(ref?.sourceId).toBe(builtinId)
      const answer = await core.media(new Request(resolved.meta!.url!))
      expect(answer.status).toBe(200)
      expect((await answer.arrayBuffer()).byteLength).toBe(row.size)
    }
    // From disk: no data source was asked for audio.
    expect(mediaRequests.length).toBe(before)
  })
})
