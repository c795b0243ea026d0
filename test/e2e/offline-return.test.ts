import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import type { Song } from '@shared/api/models'
import type { CollectionSummary, IpcResult } from '@shared/ipc/contract'
import { startApp } from './harness'
import type { App } from './harness'
import { findSongs, playable, title, waitForClock } from './playback-support'
import { OWNER_PASSPHRASE } from '../support/phone'
import { asRow } from '../support/collection-row'

/**
 * Issue 34, items 6–8 in the real renderer: with the data source stopped the app still looks whole (no
 * broken image: the kept cover or a placeholder, the avatar its initial), the OS media session gets the
 * kept cover in a form Chromium takes (a `blob:`), the banner offers "Try again", and once the source is
 * back a click brings the app back with the avatar's real picture.
 */

const APP = { senderUrl: '' }
const DEMO = 40

/** Visible images that finished loading and have no pixels: what Chromium draws as a broken image. */
const brokenImages = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('img')]
      .filter((img) => img.checkVisibility() && img.complete && img.naturalWidth === 0)
      .map((img) => img.getAttribute('src') ?? ''),
  )

/** Where the sidebar's avatar shows from once loaded ('' while it is a placeholder or has not loaded). */
const avatarFrom = (page: Page) =>
  page.getByTestId('sidebar-account').evaluate((el) => {
    const img = el.querySelector('img')
    return img && img.complete && img.naturalWidth > 0 ? img.currentSrc : ''
  })

describe('offline: whole-looking, and back at once', () => {
  let app: App
  let songs: Song[]
  let playlist: CollectionSummary
  let revived: DataSourceHandle | undefined
  let revivedDir: string | undefined
  const consoleLines: string[] = []

  beforeAll(async () => {
    app = await startApp({ demo: DEMO })
    APP.senderUrl = `${app.appUrl}/index.html`
    app.page.on('console', (message) => consoleLines.push(message.text()))
    app.page.on('pageerror', (error) => consoleLines.push(String(error)))
    // Two songs to download, and one of another album that stays on the data source.
    const found = await findSongs(app, 12, playable)
    const kept = found.slice(0, 2)
    const away = found.find((s) => kept.every((k) => k.album?.cover !== s.album?.cover))
    if (!away) throw new Error('no song of another album')
    songs = [...kept, away]
    const created = (await app.core.router.invoke(
      'collection:create',
      { name: 'Commute', songs: kept.map(asRow) },
      APP,
    )) as IpcResult<CollectionSummary>
    if (!created.ok) throw new Error(created.error.message)
    playlist = created.value
  })
  afterAll(async () => {
    await app?.close()
    await revived?.close()
    if (revivedDir) await rm(revivedDir, { recursive: true, force: true })
  })

  it('shows no broken image offline, gives the media session a blob: cover, and comes back on Try again', async () => {
    const { page } = app
    await page.evaluate((id) => (window.location.hash = `#/collection/${id}`), playlist.id)
    await page.getByTestId('download-list').click()
    await page.getByTestId('nav-downloads').click()
    await page
      .getByTestId('downloads-summary')
      .getByText(/^2 songs on this computer/)
      .waitFor({ timeout: 30_000 })
    const added = (await app.core.router.invoke(
      'collection:add',
      { id: playlist.id, songs: [asRow(songs[2])] },
      APP,
    )) as IpcResult
    expect(added.ok).toBe(true)
    // The avatar is the data source's picture while it is there.
    await expect.poll(() => avatarFrom(page), { timeout: 10_000 }).toMatch(/^http:/)

    // The data source stops; a window opened afresh, with nothing of its images in Chromium's caches.
    const port = Number(new URL(app.server!.url).port)
    await app.server!.close()
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.clearBrowserCache')
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
    await page.reload()
    const banner = page.getByTestId('offline-banner')
    // A search asks the data source: it cannot be reached, and the app says so.
    await page.getByTestId('nav-search').click()
    await page.getByTestId('search-input').fill('zz offline')
    await page.getByTestId('search-input').press('Enter')
    await banner.waitFor({ timeout: 20_000 })
    const tryAgain = banner.getByTestId('offline-try-again')
    await expect.poll(() => tryAgain.innerText()).toBe('Try again')

    await page.getByTestId('sidebar-collection-item').filter({ hasText: 'Commute' }).click()
    const rows = page.getByTestId('song-row')
    await rows.nth(2).waitFor()
    // The song not downloaded: its cover is neither on the source nor kept, so a placeholder, not a broken
    // image; the downloaded ones show their kept covers; the avatar shows the user's initial.
    await rows.nth(2).getByTestId('song-thumb-placeholder').waitFor({ timeout: 10_000 })
    await expect.poll(() => brokenImages(page), { timeout: 10_000 }).toEqual([])
    const name = await page.getByTestId('sidebar-account').locator('.who').innerText()
    await expect
      .poll(() => page.getByTestId('sidebar-account').getByTestId('cover-placeholder').innerText())
      .toBe(name.trim()[0].toUpperCase())
    await app.screenshot('offline-placeholders')

    // A downloaded song plays from disk: the OS gets its kept cover as a blob: address.
    await page.getByTestId('play-all').click()
    await waitForClock(page, 0.3)
    expect(await title(page)).toBe(songs[0].name)
    const artwork = () => page.evaluate(() => navigator.mediaSession.metadata?.artwork[0]?.src ?? '')
    await expect.poll(artwork, { timeout: 10_000 }).toMatch(/^(blob:|data:|https?:)/)
    expect(await artwork()).toMatch(/^blob:/)
    expect(await page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe(songs[0].name)
    // Chromium can draw it: the blob holds an image.
    const drawn = await page.evaluate(async () => {
      const src = navigator.mediaSession.metadata?.artwork[0]?.src ?? ''
      const image = new Image()
      image.src = src
      await image.decode()
      return image.naturalWidth
    })
    expect(drawn).toBeGreaterThan(0)

    // The data source is back on the same address; "Try again" brings the app back.
    revivedDir = await mkdtemp(join(tmpdir(), 'cadence-offline-return-'))
    revived = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir: revivedDir,
      port,
      demo: DEMO,
    })
    if (await tryAgain.isVisible()) await tryAgain.click()
    await expect.poll(() => banner.count(), { timeout: 15_000 }).toBe(0)
    // The avatar and the row's cover load from the data source again.
    await expect.poll(() => avatarFrom(page), { timeout: 15_000 }).toMatch(/^http:/)
    await rows.nth(2).getByTestId('song-thumb').waitFor({ timeout: 15_000 })
    await expect.poll(() => brokenImages(page), { timeout: 10_000 }).toEqual([])
    expect(consoleLines.filter((line) => line.includes('MediaImage src'))).toEqual([])
  })
})
