import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import type { CollectionSummary, IpcResult } from '@shared/ipc/contract'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import { startApp } from './harness'
import type { App } from './harness'
import { findSongs, playable, title, waitForClock } from './playback-support'
import { OWNER_PASSPHRASE } from '../support/phone'
import { asRow } from '../support/collection-row'

/**
 * Issue 34 items 9 and 2 in the real renderer: a playlist's header says Download, then Downloaded with
 * Remove download; the Downloaded view lists what is still to come first and says when the queue is
 * paused; and with another data source active and stopped, the downloads of the built-in source show
 * where they come from and play from disk.
 */

const APP = { senderUrl: '' }

describe('download state, and downloads of another source', () => {
  let app: App
  let songs: Song[]
  let second: DataSourceHandle
  let dataDir: string
  const playlists: CollectionSummary[] = []

  const create = async (name: string, list: Song[]) => {
    const created = (await app.core.router.invoke(
      'collection:create',
      { name, songs: list.map(asRow) },
      APP,
    )) as IpcResult<CollectionSummary>
    if (!created.ok) throw new Error(created.error.message)
    playlists.push(created.value)
    return created.value
  }
  const open = async (playlist: CollectionSummary) => {
    await app.page.evaluate((id) => (window.location.hash = `#/collection/${id}`), playlist.id)
    await app.page.getByTestId('song-row').first().waitFor()
  }

  beforeAll(async () => {
    app = await startApp({ demo: 40 })
    APP.senderUrl = `${app.appUrl}/index.html`
    songs = await findSongs(app, 4, playable)
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-e2e-other-'))
    second = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 10 })
  })
  afterAll(async () => {
    await app?.close()
    await second?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('offers Download, then shows Downloaded with Remove download, also after a reload', async () => {
    const { page } = app
    const list = await create('Two', songs.slice(0, 2))
    await open(list)
    await page.getByTestId('download-list').click()
    await page.getByTestId('download-list-done').waitFor({ timeout: 30_000 })
    expect(await page.getByTestId('download-list').count()).toBe(0)
    await page.reload()
    await open(list)
    await page.getByTestId('download-list-done').waitFor({ timeout: 15_000 })
    expect(await page.getByTestId('download-list-done').innerText()).toContain('Downloaded')

    await page.getByTestId('download-list-remove').click()
    await page.getByTestId('download-list').waitFor()
    expect(await page.getByTestId('download-list-done').count()).toBe(0)
    // Download again (the next test plays these).
    await page.getByTestId('download-list').click()
    await page.getByTestId('download-list-done').waitFor({ timeout: 30_000 })
  })

  it('lists what is still to come first, and says when the queue is paused', async () => {
    const { page } = app
    const paused = await app.core.router.invoke('downloads:pause', undefined, APP)
    expect(paused.ok).toBe(true)
    const list = await create('Paused', songs.slice(2, 4))
    await open(list)
    await page.getByTestId('download-list').click()
    await page.getByTestId('nav-downloads').click()
    const states = page.getByTestId('download-state')
    await expect.poll(() => states.count(), { timeout: 15_000 }).toBe(4)
    // The two to come first, said to be paused; then the two on this computer.
    await expect
      .poll(() => states.allInnerTexts(), { timeout: 15_000 })
      .toEqual(['Paused', 'Paused', expect.stringMatching(/[KM]B$/), expect.stringMatching(/[KM]B$/)])
    expect(await page.getByTestId('download-name').allInnerTexts()).toEqual([
      songs[2].name,
      songs[3].name,
      songs[0].name,
      songs[1].name,
    ])
    expect(await page.getByTestId('downloads-summary').innerText()).toContain('2 to download, paused')
    await app.screenshot('downloads-paused')
    await page.getByTestId('downloads-resume').click()
    await expect
      .poll(() => page.getByTestId('downloads-summary').innerText(), { timeout: 30_000 })
      .toMatch(/^4 songs on this computer/)
  })

  it('with another source active and stopped: the rows name their source and play from disk', async () => {
    const { page } = app
    const added = await app.core.router.invoke('sources:add', { url: second.url }, APP)
    if (!added.ok) throw new Error(added.error.message)
    const activated = await app.core.router.invoke(
      'sources:activate',
      { id: (added.value as { id: string }).id },
      APP,
    )
    expect(activated.ok).toBe(true)
    await second.close()
    await page.reload()
    await page.getByTestId('nav-downloads').click()
    await expect.poll(() => page.getByTestId('download-source').count(), { timeout: 15_000 }).toBe(4)
    expect(new Set(await page.getByTestId('download-source').allInnerTexts())).toEqual(
      new Set(['Built-in library']),
    )
    const before = app.mediaRequests.length
    // Double-click one: it plays.
    const row = page.getByTestId('download-row').filter({ hasText: songs[1].name })
    await row.getByTestId('download-name').dblclick()
    await page.getByTestId('player-title').getByText(songs[1].name, { exact: true }).waitFor()
    await waitForClock(page, 0.5)
    // Play all: the first row plays (all are done: in the order they were added), then the next.
    expect(await page.getByTestId('download-name').first().innerText()).toBe(songs[0].name)
    await page.getByTestId('downloads-play').click()
    await page.getByTestId('player-title').getByText(songs[0].name, { exact: true }).waitFor()
    await waitForClock(page, 0.3)
    await page.getByTestId('player-next').click()
    await page.getByTestId('player-title').getByText(songs[1].name, { exact: true }).waitFor()
    await waitForClock(page, 0.3)
    expect(await title(page)).toBe(songs[1].name)
    expect(await page.getByTestId('player-notice').count()).toBe(0)
    // Every byte from disk: each answered with the built-in source's files.
    const answered = app.mediaRequests.slice(before).filter((r) => r.url.includes('://song/'))
    expect(answered.length).toBeGreaterThan(0)
    for (const request of answered) expect(request.status).toBe(206)
    await app.screenshot('downloads-other-source')
  })
})
