import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import { startFaultProxy } from '../support/fault-proxy'
import type { FaultProxy } from '../support/fault-proxy'
import { startApp } from './harness'
import type { App } from './harness'
import { findSongs, playable, playSongs, title } from './playback-support'
import { OWNER_PASSPHRASE } from '../support/phone'

/**
 * A data source that answers with a well-formed envelope around `data` the app cannot read (`null` for an
 * id it does not know, as NeteaseMusicAdapter does for a virtual playlist id): people read a plain
 * sentence; what the schema check said is kept for Details.
 */

const SCHEMA_WORDS = /Invalid input|expected object|received null|unexpected answer/i

describe('an answer the app cannot read', () => {
  let app: App
  let proxy: FaultProxy
  let server: DataSourceHandle
  let dataDir: string
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-errors-'))
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 60 })
    proxy = await startFaultProxy(server.url)
    app = await startApp({ sourceUrl: proxy.url })
    await app.page.getByTestId('playlist-card').first().waitFor()
  })
  afterAll(async () => {
    await app?.close()
    await proxy?.close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('shows a plain sentence on the page, and the schema text only behind Details', async () => {
    const { page } = app
    proxy.set('/playlist/detail', { data: null })
    await page.evaluate(() => (location.hash = '#/playlist/key_unknown'))
    const alert = page.locator('main [role="alert"]')
    await expect
      .poll(() => alert.locator('p').first().textContent(), { timeout: 15_000 })
      .toBe('The data source sent an answer Cadence cannot read.')
    const details = alert.getByTestId('error-details')
    await details.locator('summary').click()
    await expect.poll(() => details.textContent(), { timeout: 10_000 }).toMatch(/Invalid input/)
    expect(await alert.locator(':scope > p').allTextContents()).not.toContainEqual(
      expect.stringMatching(SCHEMA_WORDS),
    )
    proxy.clear()
  })

  it('says a skipped song could not be read in a plain sentence, without the schema text', async () => {
    const { page } = app
    const BAD_ID = 1
    proxy.set(`/song/detail?id=${BAD_ID}`, { data: null })
    const answer = (await (await fetch(`${server.url}/song/detail?id=${BAD_ID}`)).json()) as { data: Song }
    const bad = answer.data
    const good = await findSongs(app, 1, (song) => song.id !== BAD_ID && playable(song))
    await playSongs(page, [bad, ...good])
    const notice = page.getByTestId('player-notice')
    await expect.poll(() => notice.textContent(), { timeout: 20_000 }).toContain(`Skipped “${bad.name}”`)
    const text = (await notice.textContent()) ?? ''
    expect(text).toContain('The data source sent an answer Cadence cannot read')
    expect(text).not.toMatch(SCHEMA_WORDS)
    await expect.poll(() => title(page), { timeout: 20_000 }).toBe(good[0]!.name)
    proxy.clear()
  })
})
