import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import { startApp } from './harness'
import type { App } from './harness'
import { playSongs, waitForClock } from './playback-support'
import * as phone from '../support/phone'
import { FREE_APP_SONG } from '../support/quirk-extensions'
import { startQuirkProxy } from '../support/quirk-proxy'
import type { QuirkProxy } from '../support/quirk-proxy'

/**
 * Autoplay on a netease-like data source (the quirk proxy with NeteaseMusicAdapter's extensions), whose
 * `/song/recommend` puts the 4-second `free-app` placeholder first: autoplay takes the recommended songs
 * but never the placeholder, and history never records it.
 */

describe('Autoplay on a netease-like source', () => {
  let server: DataSourceHandle
  let proxy: QuirkProxy
  let app: App
  let dataDir: string
  const sender = () => ({ senderUrl: `${app.appUrl}/index.html` })
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-e2e-free-app-'))
    server = await startDataSource({
      ownerPassphrase: phone.OWNER_PASSPHRASE,
      dataDir,
      port: 0,
      demo: 80,
      ownerName: 'Owner',
    })
    proxy = await startQuirkProxy(server.url, 'netease', { extensions: true })
    app = await startApp({ sourceUrl: proxy.url, autoplay: true })
  })
  afterAll(async () => {
    await app?.close()
    await proxy?.close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('signs in through the QR flow (recommendations are the account’s)', async () => {
    const { page } = app
    await page.getByTestId('sidebar-login').click()
    await expect.poll(() => app.loginPage()?.url() ?? '', { timeout: 15_000 }).toContain('#/login')
    const img = app.loginPage()!.getByTestId('qr-image')
    await img.waitFor()
    expect((await phone.confirmOnPhone((await img.getAttribute('data-qrurl'))!)).status).toBe(200)
    await expect
      .poll(() => page.getByTestId('sidebar-account').textContent(), { timeout: 20_000 })
      .toContain('Owner')
  })

  it('adds recommended songs, never the free-app placeholder the source puts first', async () => {
    const { page } = app
    const recommend = await app.core.router.invoke('catalog:recommend-songs', { limit: 30 }, sender())
    const recommended = recommend.ok ? (recommend.value as Song[]) : []
    // The source does serve it, first, as NeteaseMusicAdapter does.
    expect(String(recommended[0]?.id)).toBe(FREE_APP_SONG.id)
    const real = recommended.slice(1).filter((s) => s.privilege?.playable !== false)
    expect(real.length).toBeGreaterThan(2)

    // The first song's artist's hot songs were heard a moment ago: autoplay goes on to the recommended.
    const [first] = real
    const artist = await app.core.router.invoke('catalog:artist', { id: first.artists[0].id }, sender())
    const hot = artist.ok ? ((artist.value as { songs?: Song[] }).songs ?? []) : []
    const active = await app.page.evaluate(() => window.cadence.invoke('sources:list'))
    for (const song of hot)
      app.core.history.record({
        listenedAt: Date.now() - 60_000,
        sourceId: active.activeId,
        songId: String(song.id),
        title: song.name,
        artists: song.artists.map((a) => a.name),
        durationMs: song.duration ?? 0,
      })

    await playSongs(page, [first])
    await waitForClock(page, 0.3)
    await page.getByTestId('player-queue').click()
    const items = page.getByTestId('queue-item')
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBeGreaterThan(1)
    const added = await page
      .locator('[data-testid="queue-item"]:has([data-testid="queue-autoplay"]) .name')
      .allTextContents()
    const recommendedNames = new Set(real.map((s) => s.name))
    expect(added.some((name) => recommendedNames.has(name))).toBe(true)
    expect(added).not.toContain(FREE_APP_SONG.name)
    expect(await page.getByTestId('queue-item').filter({ hasText: FREE_APP_SONG.name }).count()).toBe(0)
    await page.getByTestId('player-toggle').click()
  })

  it('history never records the placeholder', () => {
    const before = app.core.history.state().count
    expect(
      app.core.history.record({
        listenedAt: Date.now(),
        sourceId: 'remote',
        songId: FREE_APP_SONG.id,
        title: FREE_APP_SONG.name,
        artists: ['网易云音乐'],
        durationMs: FREE_APP_SONG.duration,
      }),
    ).toBe(false)
    expect(app.core.history.state().count).toBe(before)
    expect(app.core.history.page(500).rows.filter((r) => r.songId === FREE_APP_SONG.id)).toEqual([])
  })
})
