import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import type { Song } from '@shared/api/models'
import type { SourceList } from '@shared/ipc/contract'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { playSongs, seekWithSlider, waitForClock } from './playback-support'
import { activateInSettings, addToQueue, sourceSongs, textOf } from './sources-support'
import { OWNER_PASSPHRASE } from '../support/phone'
import { startQuirkProxy } from '../support/quirk-proxy'
import type { QuirkProxy } from '../support/quirk-proxy'

/**
 * Issue 36, one queue across sources: a queue that mixes a song of the built-in source and a song of a
 * NeteaseMusicAdapter-like server (a quirk proxy) plays both in order, each from its own source, names
 * where each comes from, and survives a switch of the active source and a restart of the app.
 */

const DEMO = 20

describe('One queue across data sources', () => {
  let app: App
  let server: DataSourceHandle
  let proxy: QuirkProxy
  let dataDir: string
  let quirkId = ''
  let quirkName = ''
  let builtinName = ''
  let builtinSong: Song
  let quirkSong: Song

  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-e2e-queue-sources-'))
    server = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir,
      port: 0,
      demo: 30,
      ownerName: 'Quirk Owner',
    })
    proxy = await startQuirkProxy(server.url, 'netease')
    app = await startApp({ demo: DEMO })
    const trusted = { senderUrl: `${app.appUrl}/index.html` }
    const added = await app.core.router.invoke('sources:add', { url: proxy.url }, trusted)
    if (!added.ok) throw new Error(added.error.message)
    quirkId = (added.value as { id: string }).id
    const list = (await app.core.router.invoke('sources:list', undefined, trusted)) as {
      ok: true
      value: SourceList
    }
    quirkName = list.value.sources.find((s) => s.id === quirkId)!.name
    builtinName = list.value.sources.find((s) => s.builtin)!.name
    ;[builtinSong] = await sourceSongs(app, list.value.activeId, 1)
    // Another song than the built-in one (the two demo catalogues are alike): told apart by name.
    quirkSong = (await sourceSongs(app, quirkId, 3)).find((song) => song.name !== builtinSong.name)!
  }, 120_000)
  afterAll(async () => {
    await app?.close()
    await proxy?.close()
    await server?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  const titleOf = (page: Page) => page.getByTestId('player-title')

  it('queues songs of two sources, keeps them through a switch, and plays both in order', async () => {
    const { page } = app
    // A song of the built-in source, queued while it is active.
    await playSongs(page, [builtinSong])
    await expect.poll(() => textOf(titleOf(page)), { timeout: 30_000 }).toBe(builtinSong.name)
    await page.getByTestId('player-toggle').click()

    // The other source made active: the queue stays; a song of it is added.
    await activateInSettings(page, proxy.url)
    await expect.poll(() => textOf(titleOf(page)), { timeout: 15_000 }).toBe(builtinSong.name)
    await addToQueue(page, [quirkSong])
    // Back to the built-in source: both stay, each named with its source.
    await activateInSettings(page, undefined)
    await page.getByTestId('player-queue').click()
    const labels = page.getByTestId('queue-panel').getByTestId('queue-source')
    await expect.poll(() => labels.allInnerTexts(), { timeout: 15_000 }).toEqual([builtinName, quirkName])
    await page.getByTestId('player-queue').click()

    // Plays the built-in song, then (at its end) the other source's.
    await page.getByTestId('player-toggle').click()
    await waitForClock(page, 0.5, 30_000)
    await seekWithSlider(page, builtinSong.duration! - 2500)
    await expect.poll(() => textOf(titleOf(page)), { timeout: 30_000 }).toBe(quirkSong.name)
    await waitForClock(page, 1, 30_000)
    expect(app.mediaRequests.some((r) => r.url.includes(`/${encodeURIComponent(quirkId)}/`))).toBe(true)

    // The now-playing screen says where it comes from.
    await page.getByTestId('player-open-now-playing').click()
    await expect
      .poll(() => textOf(page.getByTestId('now-playing-source')), { timeout: 15_000 })
      .toBe(`From ${quirkName}`)
    await page.keyboard.press('Escape')

    // A switch of the active source while it plays: it plays on.
    await activateInSettings(page, proxy.url)
    await expect.poll(() => textOf(titleOf(page)), { timeout: 15_000 }).toBe(quirkSong.name)
    const before = await page
      .getByTestId('player-audio')
      .evaluate((el) => (el as HTMLAudioElement).currentTime)
    await waitForClock(page, before + 1, 30_000)
    await activateInSettings(page, undefined)
    // Paused: the session is saved.
    await page.getByTestId('player-toggle').click()
    await expect
      .poll(
        () => {
          const saved = app.store.snapshot().session
          return typeof saved === 'string' ? saved : ''
        },
        { timeout: 15_000 },
      )
      .toContain(quirkId)
  }, 180_000)

  it('restores the mixed queue after a restart, each song playing from its own source', async () => {
    const store = app.store.snapshot()
    await app.close()
    app = await startApp({ demo: DEMO, store })
    const { page } = app
    await expect.poll(() => textOf(titleOf(page)), { timeout: 30_000 }).toBe(quirkSong.name)
    await page.getByTestId('player-queue').click()
    const labels = page.getByTestId('queue-panel').getByTestId('queue-source')
    await expect.poll(() => labels.allInnerTexts(), { timeout: 15_000 }).toEqual([builtinName, quirkName])
    await page.getByTestId('player-queue').click()
    // The other source's song plays on from where it was.
    await page.getByTestId('player-toggle').click()
    const from = await page.getByTestId('player-audio').evaluate((el) => (el as HTMLAudioElement).currentTime)
    await waitForClock(page, from + 1, 30_000)
    // And the built-in one before it, from the built-in source.
    await page.getByTestId('player-previous').click()
    await page.getByTestId('player-previous').click()
    await expect.poll(() => textOf(titleOf(page)), { timeout: 30_000 }).toBe(builtinSong.name)
    await waitForClock(page, 1, 30_000)
    await app.screenshot('queue-sources-restored')
  }, 180_000)
})
